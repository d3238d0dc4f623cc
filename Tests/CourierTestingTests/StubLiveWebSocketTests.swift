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

    @Test("with a connectivity monitor, a network that comes back ends the back-off at once")
    func reconnectsWhenTheNetworkReturns() async throws {
        let transport = StubTransport()
        let first = StubWebSocket()
        let second = StubWebSocket()
        transport.answerWebSocket(RequestMatcher(.get, "live"), with: first, second)
        var policy = WebSocketReconnectPolicy()
        policy.initialDelay = .seconds(3600)
        policy.maximumDelay = .seconds(3600)
        let network = StubConnectivityMonitor()
        let client = Client(baseURL: "https://api.example.com", transport: transport)
        let live = client.liveWebSocket(Request<Void>(.get, "live"), reconnect: policy, connectivity: network) { socket in
            try await socket.send(.text("subscribe"))
        }
        var events = live.events.makeAsyncIterator()
        #expect(await events.next() == .connecting(attempt: 1))
        #expect(await events.next() == .open)
        first.drop()
        guard case .reconnecting(attempt: 1, let delay) = await events.next() else {
            Issue.record("the live socket did not report that it reconnects")
            return
        }
        #expect(delay >= .seconds(1800), "an hour's back-off, give or take its jitter")
        // The device joins another network: reported as connected again.
        network.set(connected: true)
        // Not an hour later: at once, as a fresh start.
        #expect(await events.next() == .connecting(attempt: 1))
        #expect(await events.next() == .open)
        second.receive(.text("back"))
        var messages = live.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("back"))
        #expect(second.sent == [.text("subscribe")])
        await live.close()
    }

    @Test("while the monitor reports no network, a dropped live socket spends no tries")
    func spendsNoTriesOffline() async throws {
        let transport = StubTransport()
        let first = StubWebSocket()
        let second = StubWebSocket()
        transport.answerWebSocket(RequestMatcher(.get, "live"), with: first, second)
        var policy = WebSocketReconnectPolicy()
        policy.initialDelay = .milliseconds(1)
        policy.maximumDelay = .milliseconds(1)
        policy.maximumAttempts = 1
        let network = StubConnectivityMonitor()
        let client = Client(baseURL: "https://api.example.com", transport: transport)
        let live = client.liveWebSocket(Request<Void>(.get, "live"), reconnect: policy, connectivity: network)
        var events = live.events.makeAsyncIterator()
        #expect(await events.next() == .connecting(attempt: 1))
        #expect(await events.next() == .open)
        network.set(connected: false)
        first.drop()
        guard case .reconnecting(attempt: 1, _) = await events.next() else {
            Issue.record("the live socket did not report that it reconnects")
            return
        }
        // Long past the 1 ms back-off, nothing is opened while the device is offline.
        try await Task.sleep(for: .milliseconds(200))
        #expect(transport.requests.count == 1, "no handshake while offline")
        network.set(connected: true)
        #expect(await events.next() == .connecting(attempt: 1))
        #expect(await events.next() == .open)
        #expect(transport.requests.count == 2)
        await live.close()
    }
}
