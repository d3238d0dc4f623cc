import Clocks
@testable import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

@Suite("The client's timeouts and waits read one clock a test replaces, and its dates one wall clock")
struct ClientClockTests {
    @Test("an attempt's timeout passes on the client's clock, not on the wall")
    func timeoutOnTheClientsClock() async throws {
        let clock = TestClock()
        // A server that answers nothing until the call gives up.
        let silence = StubGate()
        let transport = StubTransport()
        transport.answer(.get("slow"), with: .status(.ok).held(until: silence))
        let client = Client(baseURL: "https://api.example.com", transport: transport) {
            $0.clock = clock
            $0.timeout = .seconds(30)
        }
        let done = LockedBox(false)
        let call = Task {
            defer { done.mutate { $0 = true } }
            return await capture { try await client.send(Request<Void>(.get, "slow")) }
        }
        while silence.waitingCount == 0 { await Task.yield() }
        await clock.advance(by: .seconds(29))
        #expect(!done.value, "no timeout before thirty seconds")
        await drive(clock) { done.value }
        // `drive` only advances the test clock: the call ended on virtual time, not real seconds.
        #expect(done.value, "the timeout fired once the test clock passed thirty seconds")
        guard case .failure(let error) = await call.value else {
            Issue.record("a silent server's call succeeded")
            return
        }
        #expect(CourierError(error).kind == .timedOut)
    }

    @Test("a rate limit without a clock of its own waits on the client's clock")
    func rateLimitOnTheClientsClock() async throws {
        let clock = TestClock()
        let transport = StubTransport.scripted([])
        let client = Client(baseURL: "https://api.example.com", transport: transport) {
            $0.clock = clock
            $0.middleware = [RateLimitMiddleware(.perHost(1, per: .seconds(3600)))]
        }
        try await client.send(Request<Void>(.get, "first"))
        let start = clock.now
        let second = Task { try await client.send(Request<Void>(.get, "second")) }
        for _ in 0..<1000 where transport.requests.count < 2 {
            await clock.advance(by: .seconds(60))
            await Task.yield()
        }
        try await second.value
        #expect(start.duration(to: clock.now) >= .seconds(3600), "an hour of the client's clock")
    }

    @Test("a Retry-After date is read against the client's wall clock, the wait on its clock")
    func retryAfterDateOnTheClientsWallClock() async throws {
        let clock = TestClock()
        let transport = StubTransport.scripted([.status(503, headers: [.retryAfter: "Sun, 09 Sep 2001 01:46:42 GMT"]), .status(204)])
        let client = Client(baseURL: "https://api.example.com", transport: transport) {
            $0.clock = clock
            $0.currentDate = { Date(timeIntervalSince1970: 1_000_000_000) }
            $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 2))]
        }
        let start = clock.now
        let call = Task { try await client.send(Request<Void>(.get, "items")) }
        await drive(clock) { transport.requests.count == 2 }
        try await call.value
        #expect(start.duration(to: clock.now) >= .seconds(2), "two seconds after the client's now, not 2001's past")
    }
}
