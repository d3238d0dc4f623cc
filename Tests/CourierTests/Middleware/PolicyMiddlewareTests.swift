import Clocks
@testable import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

@Suite("Retry and rate-limit middleware carry out their decisions, on a test clock")
struct PolicyMiddlewareTests {
    @Test("a GET answered 503, 503, 200 succeeds on the third attempt after the backoff waits")
    func retriesThenSucceeds() async throws {
        let clock = TestClock()
        let transport = StubTransport.scripted([.status(503), .status(503), .status(200, body: "[1]")])
        let retry = RetryMiddleware(.exponential(maxAttempts: 3), clock: clock, random: { 1 })
        let client = Client.scripted(transport, middleware: [retry])
        let start = clock.now
        let result = Task { try await client.send(Request<[Int]>(.get, "items")) }
        // The task may not have run yet on a busy machine: the first attempt comes first.
        while transport.requests.isEmpty { await Task.yield() }
        await clock.advance(by: .milliseconds(199))
        #expect(transport.requests.count == 1, "no retry before the first backoff (200 ms) is over")
        await drive(clock) { transport.requests.count == 3 }
        #expect(try await result.value == [1])
        #expect(start.duration(to: clock.now) >= .milliseconds(600), "waited 200 ms, then 400 ms")
    }

    @Test("a POST without an Idempotency-Key is sent once, its 503 delivered")
    func postNotReplayed() async throws {
        let transport = StubTransport.scripted([.status(503), .status(200)])
        let client = Client.scripted(transport, middleware: [RetryMiddleware(.exponential(), clock: TestClock())])
        let error = await #expect(throws: CourierError.self) { try await client.send(Request<Void>(.post, "orders")) }
        #expect(error?.kind == .serverError)
        #expect(transport.requests.count == 1)
    }

    @Test("a cancelled request is never retried, even while waiting to retry")
    func cancellationEndsTheWait() async throws {
        let clock = TestClock()
        let transport = StubTransport.scripted([.status(503), .status(200)])
        let client = Client.scripted(transport, middleware: [RetryMiddleware(.exponential(), clock: clock)])
        let result = Task { try await client.send(Request<Void>(.get, "items")) }
        while transport.requests.isEmpty { await Task.yield() }
        result.cancel()
        let error = await #expect(throws: CourierError.self) { try await result.value }
        #expect(error?.kind == .cancelled)
        #expect(transport.requests.count == 1)
    }

    @Test("connection failures are retried; the attempt number reaches the inner middleware")
    func connectionFailures() async throws {
        let attempts = LockedBox<[Int]>([])
        struct AttemptSpy: Middleware {
            let attempts: LockedBox<[Int]>
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
            ) async throws -> MiddlewareResponse {
                attempts.mutate { $0.append(context.attempt) }
                return try await next(request, body, context)
            }
        }
        let clock = TestClock()
        let transport = StubTransport.scripted([.failure(URLError(.cannotConnectToHost)), .status(204)])
        let client = Client.scripted(
            transport,
            middleware: [
                RetryMiddleware(.exponential(), clock: clock, random: { 0 }), AttemptSpy(attempts: attempts),
            ])
        try await client.send(Request<Void>(.get, "items"))
        #expect(attempts.value == [1, 2])
    }

    @Test("requests over the limit wait in arrival order instead of failing")
    func rateLimitQueues() async throws {
        let clock = TestClock()
        let transport = StubTransport.scripted([])
        let client = Client.scripted(transport, middleware: [RateLimitMiddleware(.perHost(5, per: .seconds(1)), clock: clock)])
        let requests = (0..<7).map { index in
            Task { try await client.send(Request<Void>(.get, "items/\(index)")) }
        }
        let start = clock.now
        while transport.requests.count < 5 { await Task.yield() }
        await clock.advance(by: .milliseconds(100))
        #expect(transport.requests.count == 5, "the burst of 5 went at once; the rest wait")
        await drive(clock) { transport.requests.count == 7 }
        for request in requests { try await request.value }
        #expect(start.duration(to: clock.now) >= .milliseconds(400), "one request per 200 ms after the burst")
    }

    @Test("cancelling a request that waits for its turn ends it at once with the cancelled kind")
    func rateLimitWaitIsCancellable() async throws {
        let clock = TestClock()
        let transport = StubTransport.scripted([])
        let client = Client.scripted(transport, middleware: [RateLimitMiddleware(.perHost(1, per: .seconds(60)), clock: clock)])
        try await client.send(Request<Void>(.get, "first"))
        let waiting = Task { try await client.send(Request<Void>(.get, "second")) }
        await clock.advance(by: .seconds(1))
        waiting.cancel()
        let error = await #expect(throws: CourierError.self) { try await waiting.value }
        #expect(error?.kind == .cancelled)
        #expect(transport.requests.count == 1)
    }

    @Test("a 429 with Retry-After pauses the host's bucket for the requests behind it")
    func retryAfterPausesBucket() async throws {
        let clock = TestClock()
        let transport = StubTransport.scripted([.status(429, headers: [.retryAfter: "2"])])
        let client = Client.scripted(transport, middleware: [RateLimitMiddleware(.perHost(10, per: .seconds(1)), clock: clock)])
        _ = await capture { try await client.send(Request<Void>(.get, "a")) }
        let start = clock.now
        let next = Task { try await client.send(Request<Void>(.get, "b")) }
        await drive(clock) { transport.requests.count == 2 }
        try await next.value
        #expect(start.duration(to: clock.now) >= .seconds(2))
    }
}

/// Advances `clock` in small steps until `condition` holds: waits that register late still fire,
/// and the virtual time elapsed shows how long the code under test waited.
func drive(_ clock: TestClock<Duration>, until condition: () -> Bool) async {
    for _ in 0..<100_000 where !condition() {
        await clock.advance(by: .milliseconds(10))
        await Task.yield()
    }
}
