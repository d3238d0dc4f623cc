import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Courier's transport over `URLSession`: the default on every platform.
///
/// On Apple platforms ordinary calls go through swift-openapi-urlsession's `URLSessionTransport`.
/// On Linux they go through data tasks of Courier's own, whose delegate
/// receives the body piece by piece: a body past the client's size limit stops the transfer, a 401
/// challenge is answered with the 401 itself, and cancelling never calls into URLSession on the
/// cancelling thread. Uploads from a file (``RequestBody/file(_:contentType:)``) and downloads to
/// a file (``Client/download(_:to:progress:)``) use URLSession's own upload and download tasks,
/// which stream from and to disk.
///
/// ```swift
/// let client = Client(baseURL: base, transport: .urlSession(mySession))
/// ```
///
/// On Linux, URLSession scales to about 16 requests in flight; for servers and command-line tools
/// there, prefer the AsyncHTTPClient transport from the `CourierAsyncHTTPClient` product.
public struct SessionTransport: Transport, ClientTransport {
    /// The session requests are sent with.
    public let session: URLSession
    private let base: URLSessionTransport
    #if canImport(FoundationNetworking)
    /// The session data tasks run in: `session` when its delegate is Courier's, otherwise one made
    /// with `session`'s configuration and Courier's delegate.
    let dataSession: URLSession
    let delegate: SessionDelegate
    /// How much of a streamed body waits in memory for its reader before the rest goes to disk.
    var streamedBodyLimits = SpooledBody.Limits()
    #endif

    /// Creates the transport.
    /// - Parameter session: The session to send with. Courier follows redirects itself (see
    ///   ``Configuration/redirectLimit``) only when the session does not: give a session whose
    ///   delegate refuses them, as `URLSession.courierShared`'s does.
    public init(session: URLSession = .courierShared) {
        self.session = session
        self.base = URLSessionTransport(configuration: .init(session: session))
        #if canImport(FoundationNetworking)
        if let delegate = session.delegate as? SessionDelegate {
            self.delegate = delegate
            self.dataSession = session
        } else {
            let delegate = SessionDelegate()
            self.delegate = delegate
            self.dataSession = URLSession(
                configuration: session.configuration,
                delegate: delegate,
                delegateQueue: SessionDelegate.queue()
            )
        }
        #endif
    }

    /// The codings URLSession decodes and advertises by itself: on Linux libcurl's
    /// `deflate, gzip, br, zstd`, on Apple platforms `gzip, deflate, br`.
    public var contentCodings: Set<ContentCoding> { Self.decodedCodings }

    static let decodedCodings: Set<ContentCoding> = {
        #if canImport(FoundationNetworking)
        [.deflate, .gzip, .brotli, .zstandard]
        #else
        [.gzip, .deflate, .brotli]
        #endif
    }()

    /// Sends a request and delivers its response body as asked.
    ///
    /// A body from a file or to a file goes through URLSession's upload and download tasks, which
    /// stream from and to disk. On Linux a body wanted whole in memory, with nobody listening for
    /// progress, is read by a data task that stops at the limit.
    /// - Parameter request: The request and how its response body is wanted.
    /// - Returns: The response and its body.
    /// - Throws: ``CourierError``, or URLSession's errors.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.bodyFile != nil || request.delivery.destination != nil {
            // A transfer is long next to a task's start: it runs in one that the interruption ends.
            return try await request.interruption.run { try await transfer(FileTransfer(request)) }
        }
        if request.isCachedByClient, request.delivery.collectsAll, request.progress == nil,
            let urlCache = session.configuration.urlCache
        {
            return try await send(request, bypassing: urlCache)
        }
        #if canImport(FoundationNetworking)
        if request.delivery.collectsAll, request.progress == nil {
            let urlRequest = try await Self.urlRequest(for: request.request, body: request.body, origin: request.origin)
            let handler = CollectingTaskHandler(limit: request.delivery.limit)
            let (response, bytes) = try await run(urlRequest, handler: handler, interruption: request.interruption)
            return TransportResponse(response: response, body: bytes.isEmpty ? nil : HTTPBody(bytes))
        }
        return try await request.delivered { head, body, origin, _ in
            try await stream(head, body: body, origin: origin, interruption: request.interruption)
        }
        #else
        return try await request.interruption.run {
            try await request.delivered { request, body, origin, name in
                try await send(request, body: body, baseURL: origin, operationID: name)
            }
        }
        #endif
    }

    /// Sends a request the client's own cache handles, past the session's `URLCache`: nothing is
    /// read from it, and the response is removed from it again, so that two caches never stack.
    private func send(_ request: TransportRequest, bypassing urlCache: URLCache) async throws -> TransportResponse {
        var urlRequest = try await Self.urlRequest(for: request.request, body: request.body, origin: request.origin)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        defer { urlCache.removeCachedResponse(for: urlRequest) }
        #if canImport(FoundationNetworking)
        let handler = CollectingTaskHandler(limit: request.delivery.limit)
        let (response, bytes) = try await run(urlRequest, handler: handler, interruption: request.interruption)
        return TransportResponse(response: response, body: bytes.isEmpty ? nil : HTTPBody(bytes))
        #else
        let (data, urlResponse) = try await request.interruption.run { [urlRequest] in try await session.data(for: urlRequest) }
        guard data.count <= request.delivery.limit else {
            throw CourierError(.responseTooLarge, message: "The response body is larger than \(request.delivery.limit) bytes.")
        }
        return TransportResponse(response: try Self.response(from: urlResponse), body: data.isEmpty ? nil : HTTPBody(data))
        #endif
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
        #if canImport(FoundationNetworking)
        return try await stream(request, body: body, origin: baseURL, interruption: .none)
        #else
        try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        #endif
    }

    #if canImport(FoundationNetworking)
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
    #endif
}
