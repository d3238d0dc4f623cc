import HTTPTypes

/// How one request uses a client's ``CachingMiddleware``: as HTTP says (the default), past the
/// cache, revalidated, or from the cache alone.
///
/// ```swift
/// let fresh = try await movies.send(MovieAPI.popular(page: 1).cachePolicy(.revalidate))
/// let offline = try await movies.send(MovieAPI.popular(page: 1).cachePolicy(.onlyIfCached))
/// ```
///
/// A policy is a request `Cache-Control` field (RFC 9111 §5.2.1), so the server sees it too; an
/// endpoint may set that field itself to the same effect.
public struct CachePolicy: Sendable, Hashable {
    /// The `Cache-Control` value, or `nil` for none.
    let directives: String?

    /// A stored response is used while it is fresh, revalidated when stale.
    public static let standard = CachePolicy(directives: nil)
    /// Past the cache: nothing stored is used, and the response is not stored (`no-store`).
    public static let reload = CachePolicy(directives: "no-store")
    /// A stored response is used only once the server confirms it (`no-cache`): a conditional
    /// request with its validators, answered by a 304 or a new response.
    public static let revalidate = CachePolicy(directives: "no-cache")
    /// Only a stored response, however stale (`only-if-cached, max-stale`); nothing is sent. With
    /// nothing stored, the call fails with ``CourierError/Kind/notCached``.
    public static let onlyIfCached = CachePolicy(directives: "only-if-cached, max-stale")

    /// A stored response is used while it is fresh or stale by at most `staleness` (`max-stale`):
    /// for showing something while the network is slow or gone.
    /// - Parameter staleness: How stale a response may be; `nil` for any staleness.
    /// - Returns: The policy.
    public static func allowingStale(upTo staleness: Duration? = nil) -> CachePolicy {
        guard let staleness else { return CachePolicy(directives: "max-stale") }
        return CachePolicy(directives: "max-stale=\(max(0, staleness.components.seconds))")
    }
}

extension Request {
    /// The same request with a cache policy: how a client's ``CachingMiddleware`` answers it.
    /// - Parameter policy: The policy; it replaces any `Cache-Control` field of the request.
    /// - Returns: The request.
    public func cachePolicy(_ policy: CachePolicy) -> Request {
        var copy = self
        copy.headerFields[.cacheControl] = policy.directives
        return copy
    }
}
