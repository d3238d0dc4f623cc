import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Paces requests with a ``TokenBucket`` per host: requests over the limit wait their turn (first
/// come, first served) instead of failing, and the wait ends early with
/// ``CourierError/Kind/cancelled`` when the request is cancelled.
///
/// The bucket follows the server: a 429 or 503 with `Retry-After` pauses it, and
/// `RateLimit-Remaining`/`RateLimit-Reset` (or `X-RateLimit-Remaining`/`X-RateLimit-Reset`) cap it.
/// A request that the server's pause would hold for longer than its timeout fails at once with
/// ``CourierError/Kind/rateLimited`` instead of waiting.
///
/// ```swift
/// let api = Client(baseURL: "https://api.example.com") {
///     $0.middleware = [RateLimitMiddleware(.perHost(5, per: .seconds(1)))]
/// }
/// ```
public struct RateLimitMiddleware: Middleware {
    /// The limit each host gets.
    public let limit: RateLimit
    /// The clock given at creation; otherwise the client's.
    private let clock: ElapsedClock?
    private let buckets = LockedState([String: TokenBucket]())

    /// Creates the middleware; its waits are measured with the client's ``Configuration/clock``.
    /// - Parameter limit: The pace per host.
    public init(_ limit: RateLimit) {
        self.limit = limit
        self.clock = nil
    }

    /// Creates the middleware with a clock of its own.
    /// - Parameters:
    ///   - limit: The pace per host.
    ///   - clock: What waits are measured with, instead of the client's clock.
    public init(_ limit: RateLimit, clock: some Clock<Duration>) {
        self.limit = limit
        self.clock = ElapsedClock(clock)
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        let host = request.authority ?? ""
        let clock = self.clock ?? context.elapsedClock
        var (wait, paused) = withBucket(for: host, clock: clock) { bucket, now in (bucket.reserve(now: now), bucket.isPaused(now: now)) }
        while wait > .zero {
            // A server's pause longer than the request may take is an answer now, not a wait the
            // caller cannot see the end of.
            if paused, wait > context.timeout { throw Self.pausedError(wait: wait) }
            try await clock.sleep(wait)
            // A pause the server asked for while this request waited moves it behind the pause.
            (wait, paused) = withBucket(for: host, clock: clock) { bucket, now in
                bucket.isPaused(now: now) ? (bucket.reserve(now: now), true) : (.zero, false)
            }
        }
        let result = try await next(request, body, context)
        observe(result.response, host: host, clock: clock, date: context.currentDate())
        return result
    }

    private func observe(_ response: HTTPResponse, host: String, clock: ElapsedClock, date: Date) {
        let fields = response.headerFields
        let retryAfter =
            [.tooManyRequests, .serviceUnavailable].contains(response.status)
            ? RetryAfter.delay(from: fields[.retryAfter], now: date) : nil
        let remaining = (fields[.rateLimitRemaining] ?? fields[.xRateLimitRemaining]).flatMap(RateLimitFields.remaining)
        guard retryAfter != nil || remaining != nil else { return }
        let reset = (fields[.rateLimitReset] ?? fields[.xRateLimitReset]).flatMap {
            RateLimitFields.resetDelay(from: $0, now: date)
        }
        withBucket(for: host, clock: clock) { bucket, now in
            if let retryAfter { bucket.pause(for: retryAfter, now: now) }
            if let remaining { bucket.adapt(remaining: remaining, reset: reset, now: now) }
        }
    }

    static func pausedError(wait: Duration) -> CourierError {
        let seconds = wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0)
        return CourierError(
            .rateLimited,
            message: "The server asked for no more requests for \(seconds) s, longer than the request's timeout."
        )
    }

    private func withBucket<T>(for host: String, clock: ElapsedClock, _ body: (inout TokenBucket, Duration) -> T) -> T {
        let now = clock.now()
        return buckets.withLock { buckets in
            var bucket = buckets[host] ?? TokenBucket(burst: limit.burst, interval: limit.interval, now: now)
            defer { buckets[host] = bucket }
            return body(&bucket, now)
        }
    }
}

// Constant, valid field names: the failable initialiser cannot fail here.
extension HTTPField.Name {
    /// `RateLimit-Remaining` (IETF draft): requests left in the server's window.
    public static var rateLimitRemaining: Self { Self("RateLimit-Remaining")! }
    /// `RateLimit-Reset` (IETF draft): seconds until the server's window resets.
    public static var rateLimitReset: Self { Self("RateLimit-Reset")! }
    /// `X-RateLimit-Remaining`: the older spelling of ``rateLimitRemaining``.
    public static var xRateLimitRemaining: Self { Self("X-RateLimit-Remaining")! }
    /// `X-RateLimit-Reset`: seconds, or a Unix time, when the server's window resets.
    public static var xRateLimitReset: Self { Self("X-RateLimit-Reset")! }
}
