import Foundation
import TestSupport
import Testing

@testable import Courier

@Suite("WebSocket decisions: pings, close codes, bounded buffers")
struct WebSocketPolicyTests {
    @Test("one missed pong ends the socket by default; an answered ping resets the count")
    func pingMonitor() {
        var monitor = PingMonitor(policy: .every(.seconds(1), timeout: .seconds(1), missedPongs: 2))
        monitor.pingSent()
        #expect(monitor.timeoutPassed() == false)
        #expect(monitor.missed == 1)
        monitor.pingSent()
        monitor.pongReceived()
        #expect(monitor.timeoutPassed() == false)
        #expect(monitor.missed == 0)
        monitor.pingSent()
        #expect(monitor.timeoutPassed() == false)
        monitor.pingSent()
        #expect(monitor.timeoutPassed() == true)

        var strict = PingMonitor(policy: .every(.seconds(1)))
        strict.pingSent()
        #expect(strict.timeoutPassed() == true)
    }

    @Test("the ping policy's detection bound is every missed ping's interval and timeout; off has none")
    func detectionBound() {
        #expect(WebSocketPingPolicy.every(.seconds(10), timeout: .seconds(3), missedPongs: 2).detectionBound == .seconds(26))
        #expect(WebSocketPingPolicy.off.detectionBound == nil)
        #expect(WebSocketPingPolicy.every(.seconds(1), missedPongs: 0).missedPongs == 1)
    }

    @Test("only the codes RFC 6455 lets a close frame carry are sendable")
    func closeCodes() {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1014, 3000, 4000, 4999] {
            #expect(WebSocketCloseCode(rawValue: code).isSendable, "\(code)")
        }
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] {
            #expect(!WebSocketCloseCode(rawValue: code).isSendable, "\(code)")
        }
    }

    @Test("the inbox keeps messages up to its limit, refuses the one past it, and ends after those kept")
    func inbox() async throws {
        let inbox = WebSocketInbox(limit: 10)
        #expect(inbox.append(.text("12345")))
        #expect(inbox.append(.binary(Data(count: 5))))
        #expect(inbox.append(.text("x")) == false)
        inbox.finish(.webSocket(.readerTooSlow, message: "slow"))
        #expect(try await inbox.next() == .text("12345"))
        #expect(try await inbox.next() == .binary(Data(count: 5)))
        await #expect(throws: CourierError.self) { try await inbox.next() }
    }

    @Test("a waiting reader gets the next message at once; a normal end gives nil")
    func inboxWaiter() async throws {
        let inbox = WebSocketInbox(limit: 100)
        async let first = inbox.next()
        try await Task.sleep(for: .milliseconds(50))
        #expect(inbox.append(.text("hi")))
        #expect(try await first == .text("hi"))
        inbox.finish(nil)
        #expect(try await inbox.next() == nil)
    }

    @Test("the outbox lets one oversized message through alone, makes later sends wait in order, and fails them when the socket ends")
    func outbox() async throws {
        let outbox = WebSocketOutbox(limit: 10, failsWhenFull: false)
        try await outbox.reserve(25)
        // Each send joins the queue before the next starts, so the queue's order is the sends' order.
        let second = Task { try await outbox.reserve(7) }
        #expect(await eventually { outbox.waitingSends == [7] })
        let third = Task { try await outbox.reserve(5) }
        #expect(await eventually { outbox.waitingSends == [7, 5] })
        let fourth = Task { try await outbox.reserve(1) }
        #expect(await eventually { outbox.waitingSends == [7, 5, 1] })
        #expect(outbox.bytesInFlight == 25)

        // Room is granted under the outbox's lock, in order: 7 fits; 5 does not fit beside it, and
        // 1, which would, waits behind it rather than overtaking.
        outbox.release(25)
        #expect(outbox.bytesInFlight == 7)
        #expect(outbox.waitingSends == [5, 1])
        try await second.value
        outbox.release(7)
        #expect(outbox.bytesInFlight == 6)
        #expect(outbox.waitingSends.isEmpty)
        try await third.value
        try await fourth.value

        let blocked = Task { try await outbox.reserve(5) }
        #expect(await eventually { outbox.waitingSends == [5] })
        outbox.end(.webSocket(.notConnected, message: "closed"))
        let result = await blocked.result
        #expect(((try? result.get()) == nil))
        if case .failure(let error as CourierError) = result {
            #expect(error.webSocket?.reason == WebSocketFailure.Reason.notConnected)
        } else {
            Issue.record("the waiting send did not fail")
        }
    }

    @Test("with failsSendWhenFull, a send that finds no room fails at once")
    func outboxFailsWhenFull() async throws {
        let outbox = WebSocketOutbox(limit: 10, failsWhenFull: true)
        try await outbox.reserve(8)
        let error = await #expect(throws: CourierError.self) { try await outbox.reserve(8) }
        #expect(error?.webSocket?.reason == WebSocketFailure.Reason.notConnected)
        outbox.release(8)
        try await outbox.reserve(8)
    }
}
