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

    @Test("a dropped connection reconnects and resubscribes; a normal close from the server ends the live socket")
    func reconnectsAfterDropNotAfterNormalClose() async throws {
        let server = try await ReferenceServer.start()
        defer { Task { await server.stop() } }
        let openings = LockedBox(0)
        // ws/ticker sends two ticks once subscribed, then drops the connection without a close frame.
        let live = webSocketClient(server).liveWebSocket(Request<Void>(.get, "ws/ticker", query: ["count": 2]), reconnect: fastRetries) {
            socket in
            openings.mutate { $0 += 1 }
            try await socket.send(.text("subscribe"))
        }
        var messages = live.messages.makeAsyncIterator()
        for _ in 0..<2 { #expect(try await messages.next() == .text("tick 1")); #expect(try await messages.next() == .text("tick 2")) }
        #expect(openings.value >= 2, "the resubscribe hook ran on each opening")
        await live.close()

        let closing = webSocketClient(server).liveWebSocket(Request<Void>(.get, "ws/close", query: ["code": 1000]), reconnect: fastRetries) {
            socket in try await socket.send(.text("close, please"))
        }
        let events = await allEvents(closing)
        #expect(events.filter { $0 == .open }.count == 1, "one opening only: \(events)")
        #expect(!events.contains { if case .reconnecting = $0 { true } else { false } }, "\(events)")
    }
}
#endif
