import Courier
import HTTPTypes
import Testing

@Suite("The reconnect decision: backoff with jitter, and when not to reconnect")
struct WebSocketReconnectPolicyTests {
    @Test("waits grow exponentially up to the maximum; jitter only shortens them, within its share")
    func backoff() {
        var policy = WebSocketReconnectPolicy()
        policy.initialDelay = .seconds(1)
        policy.maximumDelay = .seconds(10)
        policy.jitter = 0.5
        #expect(policy.delay(attempt: 1, random: 0) == .seconds(1))
        #expect(policy.delay(attempt: 2, random: 0) == .seconds(2))
        #expect(policy.delay(attempt: 3, random: 0) == .seconds(4))
        #expect(policy.delay(attempt: 10, random: 0) == .seconds(10))
        #expect(policy.delay(attempt: 1_000_000, random: 0) == .seconds(10))
        #expect(policy.delay(attempt: 2, random: 0.999) > .milliseconds(999))
        #expect(policy.delay(attempt: 2, random: 0.5) == .seconds(1.5))
    }

    @Test("reconnects after drops, other close codes, ping timeouts and 5xx; not after a normal close, a 4xx or a broken protocol")
    func whenToReconnect() {
        #expect(WebSocketReconnectPolicy.reconnects(after: .webSocket(.closedByServer, closeCode: .abnormalClosure, message: "drop")))
        #expect(WebSocketReconnectPolicy.reconnects(after: .webSocket(.closedByServer, closeCode: .goingAway, message: "restart")))
        #expect(WebSocketReconnectPolicy.reconnects(after: .webSocket(.pingTimeout, message: "silent")))
        #expect(WebSocketReconnectPolicy.reconnects(after: CourierError(.notConnected)))
        var unavailable = CourierError.webSocket(.handshakeRefused, message: "503")
        unavailable.status = .serviceUnavailable
        #expect(WebSocketReconnectPolicy.reconnects(after: unavailable))

        #expect(!WebSocketReconnectPolicy.reconnects(after: nil))
        #expect(!WebSocketReconnectPolicy.reconnects(after: .webSocket(.closedByServer, closeCode: .normalClosure, message: "bye")))
        var forbidden = CourierError.webSocket(.handshakeRefused, message: "403")
        forbidden.status = .forbidden
        #expect(!WebSocketReconnectPolicy.reconnects(after: forbidden))
        var unauthorized = CourierError.webSocket(.handshakeRefused, message: "401 after the refresh")
        unauthorized.status = .unauthorized
        #expect(!WebSocketReconnectPolicy.reconnects(after: unauthorized))
        #expect(!WebSocketReconnectPolicy.reconnects(after: .webSocket(.protocolViolation, closeCode: .protocolError, message: "masked")))
        #expect(!WebSocketReconnectPolicy.reconnects(after: .webSocket(.messageTooLarge, closeCode: .messageTooLarge, message: "big")))
    }
}
