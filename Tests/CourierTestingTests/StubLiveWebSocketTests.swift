import Courier
import CourierTesting
import Foundation
import Testing

@Suite("A live WebSocket over the stub: reconnect and resubscribe, scripted")
struct StubLiveWebSocketTests {
    @Test("after a scripted drop, the next scripted socket opens and gets the resubscription")
    func resubscribesAfterDrop() async throws {
        let transport = StubTransport()
        let first = StubWebSocket()
        let second = StubWebSocket()
        transport.answerWebSocket(RequestMatcher(.get, "live"), with: first, second)
        var policy = WebSocketReconnectPolicy()
        policy.initialDelay = .milliseconds(10)
        let client = Client(baseURL: "https://api.example.com", transport: transport)
        let live = client.liveWebSocket(Request<Void>(.get, "live"), reconnect: policy) { socket in
            try await socket.send(.text("subscribe"))
        }
        first.receive(.text("one"))
        var messages = live.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("one"))
        first.drop()
        second.receive(.text("two"))
        #expect(try await messages.next() == .text("two"))
        #expect(first.sent == [.text("subscribe")])
        #expect(second.sent == [.text("subscribe")])
        await live.close(.normalClosure, reason: "done")
        #expect(second.closedByClient?.code == WebSocketCloseCode.normalClosure)
        var events: [WebSocketEvent] = []
        for await event in live.events { events.append(event) }
        #expect(events.first == .connecting(attempt: 1))
        #expect(events.filter { $0 == .open }.count == 2)
        #expect(events.contains { if case .reconnecting(attempt: 1, _) = $0 { true } else { false } })
        #expect(events.last == .closed(nil))
    }
}
