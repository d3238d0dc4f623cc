import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against httpbin: a response slower than the call's timeout", .requires(.pythonServers))
struct TimeoutInteropTests {
    @Test("/delay/3 with a 1-second timeout fails with timedOut, and httpbin received the request", arguments: TransportKind.allCases)
    func delayPastTimeout(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            let result = await capture { try await client.send(Request<JSONValue>(.get, "delay/3").timeout(.seconds(1))) }
            #expect(result.error?.kind == .timedOut)
            // gunicorn logs the request once its 3-second handler returns, whether or not the client stayed.
            _ = try await httpbin.accessRecord { $0.request.hasPrefix("GET /delay/3 ") }
        }
    }

    @Test("the client's timeout applies when the endpoint sets none", arguments: TransportKind.allCases)
    func clientTimeout(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make()) { $0.timeout = .seconds(1) }
            let result = await capture { try await client.send(Request<JSONValue>(.get, "delay/3")) }
            #expect(result.error?.kind == .timedOut)
        }
    }
}
