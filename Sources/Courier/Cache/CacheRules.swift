/// The choices RFC 9111 leaves to a cache, as a ``CachingMiddleware`` makes them.
public struct CacheRules: Sendable {
    /// The fraction of the time since `Last-Modified` a response without explicit freshness
    /// (`max-age`, `Expires`) stays fresh; 0.1 by default (RFC 9111 §4.2.2), `nil` for none. It
    /// applies only where the RFC allows it: to status codes defined as heuristically cacheable, or
    /// to responses marked `public`.
    public var heuristicFraction: Double? = 0.1
    /// The longest heuristic freshness; one day by default.
    public var heuristicLimit: Duration = .seconds(86_400)
    /// Whether a stale response the server allows with `stale-if-error` is served when the
    /// network fails or the server answers 500, 502, 503 or 504; `true` by default.
    public var servesStaleOnError = true

    /// The defaults.
    public init() {}
}
