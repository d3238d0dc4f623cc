/// How fast requests may go to one host.
///
/// ```swift
/// $0.middleware = [RateLimitMiddleware(.perHost(5, per: .seconds(1)))]
/// ```
public struct RateLimit: Sendable, Equatable {
    /// Requests allowed per ``period``.
    public var requests: Int
    /// The period ``requests`` refers to.
    public var period: Duration
    /// Requests that may go at once before the pace applies.
    public var burst: Int

    /// A limit per host.
    /// - Parameters:
    ///   - requests: Requests per period, e.g. 5.
    ///   - period: The period, e.g. one second.
    ///   - burst: Requests at once; `requests` by default.
    public static func perHost(_ requests: Int, per period: Duration, burst: Int? = nil) -> RateLimit {
        RateLimit(requests: max(1, requests), period: period, burst: max(1, burst ?? requests))
    }

    /// The time between requests at the steady pace.
    var interval: Duration { period / requests }
}
