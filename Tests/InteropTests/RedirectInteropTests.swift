import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against httpbin: redirects as the Transports article describes them, as gunicorn's access log records them", .requires(.pythonServers))
struct RedirectInteropTests {
    @Test("three relative redirects are followed to /get, and httpbin records every hop", arguments: TransportKind.allCases)
    func relative(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            let response = try await client.response(for: Request<JSONValue>(.get, "redirect/3"))
            #expect(response.url.path == "/get")
            #expect(response.value["url"]?.stringValue?.hasSuffix("/get") == true)
            let landed = try await httpbin.accessRecord { $0.request.hasPrefix("GET /get ") }
            #expect(landed.status == "200")
            let hops = httpbin.accessRecords.filter { $0.request.contains("redirect") }.map(\.status)
            #expect(hops == ["302", "302", "302"])
        }
    }

    @Test("two absolute redirects are followed to /get", arguments: TransportKind.allCases)
    func absolute(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            let response = try await client.response(for: Request<JSONValue>(.get, "absolute-redirect/2"))
            #expect(response.url.path == "/get")
            let landed = try await httpbin.accessRecord { $0.request.hasPrefix("GET /get ") }
            #expect(landed.status == "200")
            #expect(httpbin.accessRecords.filter { $0.request.contains("absolute-redirect") }.count == 2)
        }
    }

    @Test("a redirect to another origin drops the Authorization that basic authentication added", arguments: TransportKind.allCases)
    func crossOriginDropsAuthorization(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { first in
            try await withInteropServer(try await HTTPBinServer.start()) { other in
                let client = Client(baseURL: BaseURL(first.baseURL), transport: transport.make()) {
                    $0.middleware = [BasicAuthenticationMiddleware(username: "ada", password: "lovelace")]
                }
                let target = other.baseURL.appendingPathComponent("headers").absoluteString
                let echo = try await client.send(Request<JSONValue>(.get, "redirect-to", query: ["url": target]))
                #expect(echo["headers"]?["Authorization"] == nil)
                let sent = try await first.accessRecord { $0.request.hasPrefix("GET /redirect-to") }
                #expect(sent.authorization != "-")
                let received = try await other.accessRecord { $0.request.hasPrefix("GET /headers ") }
                #expect(received.authorization == "-")
            }
        }
    }

    @Test("a redirect loop fails with tooManyRedirects", arguments: TransportKind.allCases)
    func loop(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            // A Location of only a fragment names the same resource again: a loop of one URL.
            let result = await capture { try await client.send(Request<JSONValue>(.get, "redirect-to", query: ["url": "#again"])) }
            #expect(result.error?.kind == .tooManyRedirects)
            let first = try await httpbin.accessRecord { $0.request.hasPrefix("GET /redirect-to") }
            #expect(first.status == "302")
            #expect(httpbin.accessRecords.allSatisfy { $0.status == "302" })
        }
    }

    @Test("more redirects than redirectLimit fail with tooManyRedirects", arguments: TransportKind.allCases)
    func overLimit(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make()) { $0.redirectLimit = 2 }
            let result = await capture { try await client.send(Request<JSONValue>(.get, "redirect/4")) }
            #expect(result.error?.kind == .tooManyRedirects)
            _ = try await httpbin.accessRecord { $0.request.hasPrefix("GET /redirect/4 ") }
            #expect(!httpbin.accessRecords.contains { $0.request.hasPrefix("GET /get ") })
        }
    }
}
