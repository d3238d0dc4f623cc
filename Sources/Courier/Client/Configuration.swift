import Foundation
import HTTPTypes

/// Everything a ``Client`` does the same for every request: where the backend is, what every
/// request carries, how long it may take, how JSON is read and written, how errors are described.
///
/// Change one value and every request of that client follows. Set it up in the client's
/// configuration closure:
///
/// ```swift
/// let movies = Client(backend: .movies, environment: .staging) {
///     $0.errorFormat = .tmdb
///     $0.commonParameters.query["api_key"] = apiKey
///     $0.timeout = .seconds(15)
///     $0.decoder.dateDecodingStrategy = .iso8601
/// }
/// ```
public struct Configuration: Sendable {
    /// Scheme (TLS on with `https`), host, port and base path of the backend.
    public var baseURL: BaseURL
    /// Values every request carries: query items, header fields (including default headers such as
    /// `User-Agent`), JSON body fields.
    public var commonParameters = CommonParameters()
    /// How long a whole exchange (connect, send, receive the full body) may take; 60 s by default.
    /// An endpoint's own ``Request/timeout`` wins.
    public var timeout: Duration = .seconds(60)
    /// How the backend describes errors in its bodies.
    public var errorFormat: ErrorBodyFormat = .standard
    /// How JSON responses are read: key, date, data and float strategies, user info. An
    /// endpoint's own decoder wins. ``jsonDecoderImplementation`` says which implementation
    /// applies them.
    public var decoder = JSONDecoder()
    /// Which implementation reads JSON responses with ``decoder``'s settings: `UTF8JSONDecoder`
    /// by default (several times faster), or `JSONDecoder`. An endpoint's own choice wins.
    public var jsonDecoderImplementation: JSONDecoderImplementation = .utf8
    /// Writes JSON bodies. An endpoint's own encoder wins.
    public var encoder = JSONEncoder()
    /// How many redirects (301, 302, 303, 307, 308) one call follows; 10 by default, 0 delivers
    /// them as ``CourierError/Kind/unexpectedStatus``. Courier follows them itself, on every
    /// transport: the ``credentialFields`` never go to another origin (scheme, host or port), 303
    /// (and 301/302 after a POST) continue as GET without the body, https never continues as plain
    /// http unless ``allowsInsecureRedirects``, a body goes to another origin only with
    /// ``allowsCrossOriginBodyRedirects``, and a loop or one redirect more than this fails with
    /// ``CourierError/Kind/tooManyRedirects``.
    public var redirectLimit = 10
    /// Header fields that carry credentials: never sent to another origin when a redirect
    /// leaves the base URL's scheme, host and port, and hidden in logs. ``CredentialFields/default``
    /// by default (`Authorization`, `Cookie`, `X-API-Key`, …); the fields every
    /// middleware declares (``Middleware/credentialFields``, such as an
    /// ``AuthenticationMiddleware``'s scheme) are added to it.
    public var credentialFields: CredentialFields = .default
    /// Whether a redirect from https to plain http is followed; `false` by default, when it fails
    /// with ``CourierError/Kind/insecureRedirect``. Even when allowed, a request body is never sent
    /// to the plain-http target.
    public var allowsInsecureRedirects = false
    /// Whether a 307 or 308 redirect may take a request's body to another origin (scheme, host or
    /// port); `false` by default, when the call fails with ``CourierError/Kind/unexpectedStatus``
    /// and the body never leaves its origin: a body can carry a password or a payment as surely as
    /// a header field. Same-origin 307 and 308 are followed either way, and 303 (or 301 and 302
    /// after a POST) continues as a GET without the body.
    public var allowsCrossOriginBodyRedirects = false
    /// Hosts that are only ever reached over a connection checked against public-key pins. A call
    /// (or a redirect) to one of them fails with ``CourierError/Kind/untrustedServer`` before it
    /// is sent when the transport pins no keys for it (``Transport/pinnedHosts``): a transport
    /// built without its ``ServerTrust``, or one that cannot pin, never reaches it unpinned.
    public var hostsRequiringPins: Set<String> = []
    /// Where cookies are kept: nowhere by default (an API client authenticates with tokens), or
    /// in a ``CookieJar``, which sends and stores them as RFC 6265 says on every transport.
    public var cookieJar: CookieJar?
    /// How query strings and form bodies write lists and Booleans.
    public var queryEncoder = QueryStringEncoder()
    /// The largest response body read into memory, 16 MiB by default; a larger one fails with
    /// ``CourierError/Kind/responseTooLarge`` instead of exhausting memory.
    public var maximumResponseBodySize = 16 * 1024 * 1024
    /// The clock the client's timeouts and deadlines, and the waits of its retry and rate-limit
    /// middleware, are measured with; `ContinuousClock` by default. Tests set a test clock to
    /// drive them without waiting.
    public var clock: any Clock<Duration> {
        get { elapsedClock.base }
        set { elapsedClock = ElapsedClock(newValue) }
    }
    /// ``clock`` as the client reads it, from one start.
    var elapsedClock = ElapsedClock.continuous
    /// The current wall-clock time, for decisions made with dates: token expiry, `Retry-After`
    /// and rate-limit reset dates. `Date()` by default; tests set a fixed or moving date.
    public var currentDate: @Sendable () -> Date = { Date() }
    /// Whether identical `GET` and `HEAD` requests in flight at the same time are sent once;
    /// `true` by default. Identical means the same URL and the same header fields as sent
    /// (credentials, cookies, `Accept`, `Accept-Language`, `Accept-Encoding` and any other field
    /// included; only tracing identifiers such as `traceparent` are left out). Each caller gets its
    /// own value or error and its own facts, waits within its own timeout, and can be cancelled
    /// without affecting the others. The first caller sends the request in its own task, as with
    /// coalescing off; when it leaves (cancelled, or past its deadline), a caller still waiting
    /// sends it again. Calls that stream or download their body, or send one, are never merged.
    public var coalescesRequests = true
    /// How many calls to one host (scheme, host and port) may be at the transport at once; `nil`,
    /// no limit, by default (a value below 1 counts as 1). Calls beyond it wait and start in
    /// priority order (``Request/priority(_:)``): work already running is never stopped, but new
    /// background work waits while user-initiated work is queued. The limit counts calls, not
    /// connections, which stay the transport's business: a call holds its slot while an attempt
    /// of it (its redirects included) is under way, up to the response's head for a streamed
    /// body, and not while it waits in middleware (a token refresh, a back-off between retries),
    /// so a refresh sent through the same client always finds a slot. A waiting call counts in
    /// ``Client/activity``, can be cancelled (it leaves the line at once, as with
    /// ``Client/cancelAll()``), and fails with ``CourierError/Kind/timedOut`` when its timeout
    /// passes before its turn.
    public var maximumCallsPerHost: Int?
    /// The steps every request passes through on its way to the transport, outermost first; none
    /// by default. See ``Middleware`` for the order and the built-in steps.
    public var middleware: [any Middleware] = []

    /// Creates a configuration with defaults.
    /// - Parameter baseURL: The backend's base URL.
    public init(baseURL: BaseURL) {
        self.baseURL = baseURL
    }
}
