import Foundation

/// Facts about the call a request belongs to, for middleware to decide with.
public struct MiddlewareContext: Sendable {
    /// The endpoint's name for logs, metrics and spans: its method and path template, e.g.
    /// `"GET movie/{}/videos"` (a value in the path never appears), or the name the endpoint gave
    /// itself with ``Request/named(_:)``.
    public var name: String
    /// Scheme, host and port of the backend: what the transport resolves the request's path against.
    public var origin: URL
    /// Which attempt this is, starting at 1; ``RetryMiddleware`` counts up.
    public var attempt = 1
    /// Whether the endpoint wants credentials; `false` for calls such as login
    /// (``Request/withoutAuthentication()``).
    public var requiresAuthentication: Bool
    /// How long one attempt may take, from sending the request to receiving the whole body.
    public var timeout: Duration
    /// The header fields and query parameters that carry credentials in this client's requests
    /// (``Configuration/credentialFields`` and its authentication schemes'): never to be logged.
    public var credentialFields: CredentialFields = .default
    /// The file the request body streams from, when the endpoint sends one.
    @available(*, deprecated, message: "The body is one value, its file travels with it: a middleware that passes on a body of its own has nothing to clear.")
    public var bodyFile: URL? {
        get { payload?.file }
        set {}
    }
    /// How urgent the call is (``Request/priority(_:)``): the order its attempts start in under
    /// ``Configuration/maximumCallsPerHost``.
    public var priority = RequestPriority.userInitiated
    /// The body the call started with, as the endpoint encoded it: what travels on to the
    /// transport while the middleware passes its ``RequestPayload/body`` on unchanged.
    var payload: RequestPayload?

    /// The client's clock (``Configuration/clock``): what timeouts and waits are measured with.
    public var clock: any Clock<Duration> {
        get { elapsedClock.base }
        set { elapsedClock = ElapsedClock(newValue) }
    }
    /// ``clock`` as the client reads it.
    var elapsedClock = ElapsedClock.continuous
    /// The client's wall clock (``Configuration/currentDate``).
    public var currentDate: @Sendable () -> Date = { Date() }
    /// How the call wants the response body: collected in memory, written to a file, or streamed.
    public var responseDelivery: ResponseBodyDelivery = .collected(upTo: 16 * 1024 * 1024)
    /// The content codings the transport decodes and advertises in `Accept-Encoding` when the
    /// request does not set it: part of the request as sent.
    public var advertisedCodings: Set<ContentCoding> = []
    /// The client's cookie jar, which adds cookies to each request after the middleware.
    var cookieJar: CookieJar?
    /// Whether a cache middleware handles the call: a cache middleware sets it before calling
    /// `next`, and the transport receives it as ``TransportRequest/isCachedByClient``, so that a
    /// transport with a cache of its own (a URLSession with a `URLCache`) neither serves nor stores
    /// the response, and two caches never stack. ``CachingMiddleware`` sets it; `false` by default.
    public var isCachedByClient = false

    /// Creates a context; the client makes one per call, tests make their own.
    /// - Parameters:
    ///   - name: The endpoint's name.
    ///   - origin: The backend's scheme, host and port.
    ///   - requiresAuthentication: Whether the call carries credentials.
    ///   - timeout: How long one attempt may take.
    public init(name: String, origin: URL, requiresAuthentication: Bool = true, timeout: Duration = .seconds(60)) {
        self.name = name
        self.origin = origin
        self.requiresAuthentication = requiresAuthentication
        self.timeout = timeout
    }
}
