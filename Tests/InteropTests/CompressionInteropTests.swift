import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against httpbin: compressed bodies as the Transports article describes them", .requires(.pythonServers))
struct CompressionInteropTests {
    @Test("a gzip body arrives decoded; httpbin records the request's Accept-Encoding", arguments: TransportKind.allCases)
    func gzip(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            let echo = try await client.send(Request<JSONValue>(.get, "gzip"))
            #expect(echo["gzipped"] == true)
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /gzip ") }
            #expect(record.status == "200")
            #expect(record.acceptEncoding.contains("gzip"))
            #if AsyncHTTPClient
            if transport == .asyncHTTPClient { #expect(record.acceptEncoding == "deflate, gzip") }
            #endif
        }
    }

    @Test("a deflate body arrives decoded", arguments: TransportKind.allCases)
    func deflate(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            let echo = try await client.send(Request<JSONValue>(.get, "deflate"))
            #expect(echo["deflated"] == true)
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /deflate ") }
            #expect(record.acceptEncoding.contains("deflate"))
        }
    }

    #if AsyncHTTPClient
    @Test("a brotli body the request did not ask for is refused with invalidResponse naming the coding")
    func brotliNotAskedFor() async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: TransportKind.asyncHTTPClient.make())
            let result = await capture { try await client.send(Request<JSONValue>(.get, "brotli")) }
            let error = try #require(result.error)
            #expect(error.kind == .invalidResponse)
            #expect("\(error.localizedDescription) \(error)".contains("br"))
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /brotli ") }
            #expect(!record.acceptEncoding.contains("br"))
        }
    }
    #endif

    @Test("over URLSession, a brotli body is either decoded or refused with invalidResponse, never handed to the decoder undecoded")
    func brotliOverURLSession() async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: TransportKind.urlSession.make())
            let result = await capture { try await client.send(Request<JSONValue>(.get, "brotli")) }
            switch result {
            case .success(let echo): #expect(echo["brotli"] == true)
            case .failure(let error): #expect(error.kind == .invalidResponse)
            }
            _ = try await httpbin.accessRecord { $0.request.hasPrefix("GET /brotli ") }
        }
    }
}
