import Courier
import CourierTesting
import Foundation
import Testing

@Suite("WebSockets on the URLSession transport")
struct SessionWebSocketTests {
    #if canImport(FoundationNetworking)
    @Test("where libcurl has no WebSocket support, opening fails at once with the remedy named, never hangs")
    func unsupportedPlatformFailsAtOnce() async throws {
        let client = Client(baseURL: "http://127.0.0.1:9", transport: .urlSession())
        let start = ContinuousClock.now
        let error = await #expect(throws: CourierError.self) {
            try await client.webSocket(Request<Void>(.get, "live"))
        }
        #expect(error?.kind == CourierError.Kind.transportFailed)
        #expect(error?.message?.contains("AsyncHTTPClient transport") == true)
        #expect(ContinuousClock.now - start < .seconds(15))
    }
    #endif

    @Test("a transport without a WebSocket side is refused before any traffic, naming the remedy")
    func transportWithoutWebSockets() async throws {
        let stub = StubTransport(answersWebSockets: false)
        let client = Client(baseURL: "http://127.0.0.1:9", transport: stub)
        let error = await #expect(throws: CourierError.self) {
            try await client.webSocket(Request<Void>(.get, "live"))
        }
        #expect(error?.kind == CourierError.Kind.transportFailed)
        #expect(error?.message?.contains("AsyncHTTPClient") == true)
        #expect(stub.requests.isEmpty)
    }
}
