import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Courier's transport over `URLSession`: the default on every platform.
///
/// Every request goes through tasks whose delegate is Courier's own (`SessionDelegate`), on
/// every platform and whatever session the app gives: the delegate receives the body piece by
/// piece, so a body past the client's size limit stops the transfer; it refuses redirects, which
/// Courier follows itself under its own rules; it answers a 401 challenge with the 401 itself; and
/// it applies the transport's ``ServerTrust``. Cancelling never calls into URLSession on the
/// cancelling thread. Uploads from a file (``RequestBody/file(_:contentType:)``) and downloads to
/// a file (``Client/download(_:to:progress:)``) use URLSession's own upload and download tasks,
/// which stream from and to disk.
///
/// ```swift
/// let client = Client(baseURL: base, transport: .urlSession(mySession))
/// ```
///
/// A session whose delegate is not Courier's lends its configuration (cache, cookies, timeouts,
/// protocols) to a session the transport makes with Courier's delegate; its own delegate is not
/// called for Courier's requests.
///
/// On Linux, URLSession scales to about 16 requests in flight; for servers and command-line tools
/// there, prefer the AsyncHTTPClient transport from the `CourierAsyncHTTPClient` product.
public struct SessionTransport: Transport, ClientTransport {
    /// The session requests are sent with, as given.
    public let session: URLSession
    /// The session tasks run in: `session` when its delegate is Courier's, otherwise one made
    /// with `session`'s configuration and Courier's delegate.
    let dataSession: URLSession
    let delegate: SessionDelegate
    /// The sessions the transport made (`dataSession` when it is not `session`), invalidated with
    /// its last copy.
    let ownedSessions: OwnedSessions?
    /// How much of a streamed body waits in memory for its reader before the rest goes to disk.
    var streamedBodyLimits = SpooledBody.Limits()
    /// The hosts whose certificates are checked against pins: those of the ``ServerTrust`` given
    /// to ``init(session:trust:)``.
    public private(set) var pinnedHosts: Set<String> = []

    /// Creates the transport.
    /// - Parameter session: The session whose configuration requests are sent with; its delegate,
    ///   unless it is Courier's, is not called for them.
    public init(session: URLSession = .courierShared) {
        self.session = session
        if let delegate = session.delegate as? SessionDelegate {
            self.delegate = delegate
            self.dataSession = session
            self.ownedSessions = nil
        } else {
            let delegate = SessionDelegate(trust: (session.delegate as? any ServerTrustCarrying)?.trustEvaluation)
            self.delegate = delegate
            self.dataSession = delegate.session(configuration: session.configuration)
            self.ownedSessions = OwnedSessions([dataSession])
        }
    }

    /// Creates a transport that checks TLS servers against `trust` besides the platform's usual
    /// checks: its additional roots are trusted, and a pinned host must present a certificate
    /// whose public key matches one of its pins. A refused server fails the request with
    /// ``CourierError/Kind/untrustedServer`` before any byte of it is sent.
    ///
    /// ```swift
    /// let transport = try SessionTransport(trust: ServerTrust(pins: ["api.example.com": pins]))
    /// ```
    ///
    /// URLSession on Linux offers no way to check a server's certificate: there, a `trust` with
    /// roots or pins is refused, and the AsyncHTTPClient transport (`HTTPClientTransport(trust:)`
    /// in the `CourierAsyncHTTPClient` product) applies them instead.
    /// - Parameters:
    ///   - session: The session whose configuration requests are sent with; its delegate is not
    ///     called for them.
    ///   - trust: Additional roots and per-host pins.
    /// - Throws: ``CourierError/Kind/invalidRequest`` when a root certificate cannot be read, and
    ///   on Linux when `trust` has roots or pins.
    public init(session: URLSession = .courierShared, trust: ServerTrust) throws {
        try self.init(session: session, trust: trust, credentials: ChallengeCredentials())
    }

    /// The same, with what the transport answers a proxy's or a server's request for credentials
    /// with; `session` is invalidated with the transport when `owned` (the transport made it).
    init(session: URLSession, trust: ServerTrust, credentials: ChallengeCredentials, owned: Bool = false) throws {
        self.session = session
        let delegate = SessionDelegate(trust: try trust.sessionEvaluation(), credentials: credentials)
        self.pinnedHosts = Set(trust.pins.keys)
        self.delegate = delegate
        self.dataSession = delegate.session(configuration: session.configuration)
        self.ownedSessions = OwnedSessions(owned ? [dataSession, session] : [dataSession])
    }

    /// The codings URLSession decodes and advertises by itself: on Apple platforms
    /// `gzip, deflate, br`; on Linux libcurl's, which add `zstd`.
    public var contentCodings: Set<ContentCoding> { Self.decodedCodings }

    static let decodedCodings = Set<ContentCoding>([.gzip, .deflate, .brotli])
        #if canImport(FoundationNetworking)
    .union([.zstandard])
        #endif

    /// Sends a request and delivers its response body as asked.
    ///
    /// A body from a file or to a file goes through URLSession's upload and download tasks, which
    /// stream from and to disk. A body wanted whole in memory, with nobody listening for progress,
    /// is read by a data task that stops at the limit; any other is streamed.
    /// - Parameter request: The request and how its response body is wanted.
    /// - Returns: The response and its body.
    /// - Throws: ``CourierError``, or URLSession's errors.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        if FileTransfer.carries(request) {
            // A transfer is long next to a task's start: it runs in one that the interruption ends.
            return try await request.interruption.run { try await transfer(FileTransfer(request)) }
        }
        if request.delivery.collectsAll, request.progress == nil {
            var urlRequest = try await Self.urlRequest(for: request.request, body: request.body, origin: request.origin)
            let urlCache = request.isCachedByClient ? dataSession.configuration.urlCache : nil
            // The client's own cache handles the request: nothing is read from the session's
            // `URLCache`, and the response is removed from it again, so that two caches never stack.
            if urlCache != nil { urlRequest.cachePolicy = .reloadIgnoringLocalCacheData }
            defer { urlCache?.removeCachedResponse(for: urlRequest) }
            let handler = CollectingTaskHandler(limit: request.delivery.limit)
            let stopwatch = ExchangeStopwatch()
            let (response, bytes, observation) = try await run(urlRequest, handler: handler, interruption: request.interruption)
            let (version, timings) = observation.report(from: stopwatch)
            return TransportResponse(response: response, body: bytes.isEmpty ? nil : HTTPBody(bytes), httpVersion: version, timings: timings)
        }
        return try await request.delivered { head, body, origin, _ in
            try await stream(head, body: body, origin: origin, interruption: request.interruption)
        }
    }

    /// Sends a request for a swift-openapi-runtime client; the response body streams as it arrives.
    /// - Parameters:
    ///   - request: The request, its path below `baseURL`.
    ///   - body: The request body, if any.
    ///   - baseURL: Scheme, host and port.
    ///   - operationID: The operation's name.
    /// - Returns: The response and its body, unread.
    /// - Throws: ``CourierError``, or URLSession's errors.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await stream(request, body: body, origin: baseURL, interruption: .none)
    }

    /// Sends a request by a data task whose response comes back at its head, the body streaming
    /// (see ``StreamingTaskHandler``).
    private func stream(
        _ request: HTTPRequest,
        body: HTTPBody?,
        origin: URL,
        interruption: ExchangeInterruption
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let urlRequest = try await Self.urlRequest(for: request, body: body, origin: origin)
        return try await run(urlRequest, handler: StreamingTaskHandler(limits: streamedBodyLimits), interruption: interruption)
    }

    /// Runs one data task, its events going to `handler`, until the handler has its result.
    ///
    /// Cancellation and `interruption` end the wait at once and cancel the URLSession task from
    /// another thread: `URLSessionTask.cancel()` waits on URLSession's queue, whose thread may be
    /// resuming a task at that moment (swift-corelibs-foundation#5412).
    private func run<Handler: DataTaskHandler>(
        _ urlRequest: URLRequest,
        handler: Handler,
        interruption: ExchangeInterruption
    ) async throws -> Handler.Output {
        let task = UncheckedDataTask(task: dataSession.dataTask(with: urlRequest))
        delegate.register(handler, for: task.task)
        @Sendable func stop() {
            handler.cancel()
            task.cancelSoon()
        }
        return try await interruption.withHandler {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if handler.start(continuation, cancelTask: { task.cancelSoon() }) {
                        task.task.resume()
                    } else {
                        delegate.unregister(task.task)
                    }
                }
            } onCancel: {
                stop()
            }
        } onInterrupt: {
            stop()
        }
    }
}
