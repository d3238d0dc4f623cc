#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

@Suite("Live WebSockets: reconnection, resubscription, when not to reconnect", .timingSensitive)
struct LiveWebSocketTests {
    var fastRetries: WebSocketReconnectPolicy {
        var policy = WebSocketReconnectPolicy()
        policy.initialDelay = .milliseconds(50)
        policy.maximumDelay = .milliseconds(200)
        policy.maximumAttempts = 3
        return policy
    }

    /// Every event until the live socket closes.
    func allEvents(_ live: LiveWebSocket) async -> [WebSocketEvent] {
        var events: [WebSocketEvent] = []
        for await event in live.events { events.append(event) }
        return events
    }

    @Test("a message sent while reconnecting is delivered once, on the next socket")
    func sendWhileReconnecting() async throws {
        let server = try await ReferenceServer.start()
        defer { Task { await server.stop() } }
        var policy = fastRetries
        policy.initialDelay = .milliseconds(300)
        let live = webSocketClient(server).liveWebSocket(Request<Void>(.get, "ws/flaky", query: ["count": 1]), reconnect: policy)
        try await live.send(.text("first"))
        var messages = live.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("first"))
        // The server dropped the socket after its echo: wait until the live socket says so.
        for await event in live.events {
            if case .reconnecting = event { break }
        }
        try await live.send(.text("while reconnecting"))
        #expect(try await messages.next() == .text("while reconnecting"))
        await live.close()
    }
}
#endif
