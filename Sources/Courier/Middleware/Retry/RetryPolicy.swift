import Foundation
import HTTPTypes

/// When a failed request is sent again, and after how long.
///
/// ```swift
/// $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 4))]
/// ```
///
/// Only requests that are safe to repeat are retried: idempotent methods (GET, HEAD, PUT, DELETE,
/// OPTIONS, TRACE) and requests carrying an `Idempotency-Key` field. They are retried after
/// connection failures, timeouts, and the statuses in ``retryableStatuses`` (408, 429, 500, 502,
/// 503, 504); a `Retry-After` field sets the wait. A cancelled request is never retried, and
/// neither is one whose body can be read only once.
public struct RetryPolicy: Sendable {
    /// The most attempts per request, the first included.
    public var maxAttempts: Int
    /// The wait between attempts when the server does not say.
    public var backoff: Backoff
    /// Statuses worth another attempt.
    public var retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// A server asking for a longer wait than this in `Retry-After` gets its response delivered
    /// instead of a retry.
    public var maximumRetryAfter: Duration = .seconds(60)
    /// The limit on retries across all requests of the client; `nil` for none.
    public var budget: RetryBudget? = RetryBudget()

    /// Retries with exponential backoff and full jitter.
    /// - Parameters:
    ///   - maxAttempts: Attempts per request, the first included; 3 by default.
    ///   - backoff: The waits; 200 ms doubling up to 10 s by default.
    public static func exponential(maxAttempts: Int = 3, backoff: Backoff = Backoff()) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, backoff: backoff)
    }

    /// Never retries.
    public static var never: RetryPolicy {
        RetryPolicy(maxAttempts: 1, backoff: Backoff())
    }

    /// What happened to one attempt.
    public enum Outcome: Sendable {
        /// A response arrived.
        case response(HTTPResponse)
        /// No response: the kind of error instead.
        case failure(CourierError.Kind)
    }

    /// What to do after an attempt.
    public enum Decision: Sendable, Equatable {
        /// Deliver the outcome to the caller.
        case deliver
        /// Send the request again after waiting.
        case retry(after: Duration)
    }

    /// Decides what follows an attempt; a pure function.
    /// - Parameters:
    ///   - outcome: What the attempt produced.
    ///   - request: The request that was sent.
    ///   - attempt: Which attempt it was, starting at 1.
    ///   - random: A number in `0..<1` for the jitter.
    ///   - now: The wall-clock time, for `Retry-After` dates.
    public func decision(
        after outcome: Outcome,
        of request: HTTPRequest,
        attempt: Int,
        random: Double,
        now: Date = Date()
    ) -> Decision {
        guard attempt < maxAttempts, Self.isRepeatable(request) else { return .deliver }
        switch outcome {
        case .failure(let kind):
            guard [.notConnected, .timedOut, .transportFailed].contains(kind) else { return .deliver }
            return .retry(after: backoff.delay(forRetry: attempt, random: random))
        case .response(let response):
            guard retryableStatuses.contains(response.status.code) else { return .deliver }
            if let asked = RetryAfter.delay(from: response.headerFields[.retryAfter], now: now) {
                return asked <= maximumRetryAfter ? .retry(after: asked) : .deliver
            }
            return .retry(after: backoff.delay(forRetry: attempt, random: random))
        }
    }

    /// Whether sending `request` twice does no more than sending it once.
    public static func isRepeatable(_ request: HTTPRequest) -> Bool {
        switch request.method {
        case .get, .head, .put, .delete, .options, .trace: true
        default: request.headerFields.contains(.idempotencyKey)
        }
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key`: marks a request (usually a POST) as safe to send again.
    public static var idempotencyKey: Self { Self("Idempotency-Key")! }
}
