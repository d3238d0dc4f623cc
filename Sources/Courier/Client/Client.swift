import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends requests to one backend and returns decoded results.
///
/// A client knows its backend's base URL, its ``Configuration`` and its transport, and nothing
/// about the app's models. Create one per backend and keep it for the app's lifetime; several run
/// side by side.
///
/// ```swift
/// let movies = Client(backend: .movies, environment: .staging) {
///     $0.errorFormat = .tmdb
///     $0.commonParameters.query["api_key"] = apiKey
/// }
/// let page = try await movies.send(MovieAPI.popular(page: 1))
/// ```
///
/// Every call can be cancelled: cancel the calling task, cancel the ``RequestHandle`` of a
/// completion-handler call, or call ``cancelAll()``.
public final class Client: Sendable {
    /// The configuration, frozen in a box: a call takes one reference to it.
    private let state: LockedState<ConfigurationSnapshot>
    /// Calls in flight and their tasks: what ``cancelAll()`` and ``activity`` reach, and what
    /// enforces attempts' deadlines.
    let inFlight = InFlightRequests()
    /// Identical `GET`s in flight, sent once (``Configuration/coalescesRequests``).
    let coalescer = RequestCoalescer()
    /// The line calls wait in under ``Configuration/maximumCallsPerHost``; made for the limit in
    /// force, and made again when it changes.
    private let hostCalls = LockedState<HostCallQueue?>(nil)
    /// The open WebSockets, which ``cancelAll()`` closes.
    let webSockets = WebSocketRegistry()
    /// The transport that moves bytes: URLSession, AsyncHTTPClient, or any OpenAPI
    /// `ClientTransport` through ``OpenAPITransport``.
    public let transport: any Transport
    /// The content codings the transport decodes: read once, not per call.
    let contentCodings: Set<ContentCoding>

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: Base URL and everything shared by all requests.
    ///   - transport: How requests travel; URLSession by default.
    public init(configuration: Configuration, transport: any Transport = .urlSession()) {
        self.state = LockedState(ConfigurationSnapshot(configuration))
        self.transport = transport
        self.contentCodings = transport.contentCodings
    }

    /// Creates a client for a base URL.
    /// - Parameters:
    ///   - baseURL: Scheme, host, port and base path of the backend.
    ///   - transport: How requests travel; URLSession by default.
    ///   - configure: Adjusts the configuration.
    public convenience init(
        baseURL: BaseURL,
        transport: any Transport = .urlSession(),
        configure: (inout Configuration) -> Void = { _ in }
    ) {
        var configuration = Configuration(baseURL: baseURL)
        configure(&configuration)
        self.init(configuration: configuration, transport: transport)
    }

    /// Creates a client for a backend in an environment.
    /// - Parameters:
    ///   - backend: The backend and its URL per environment.
    ///   - environment: Production, staging, QA, or a custom origin.
    ///   - transport: How requests travel; URLSession by default.
    ///   - configure: Adjusts the configuration.
    public convenience init(
        backend: Backend,
        environment: ServerEnvironment,
        transport: any Transport = .urlSession(),
        configure: (inout Configuration) -> Void = { _ in }
    ) {
        self.init(baseURL: backend.baseURL(in: environment), transport: transport, configure: configure)
    }

    /// The configuration. Changing it affects requests started afterwards; requests in flight keep
    /// the configuration they started with.
    public var configuration: Configuration {
        get { snapshot.value }
        set { state.withLock { $0 = ConfigurationSnapshot(newValue) } }
    }

    /// The configuration as it is now, for one call.
    var snapshot: ConfigurationSnapshot {
        state.withLock { $0 }
    }

    /// Builds the request `endpoint` describes, exactly as ``send(_:)`` would send it, without any
    /// network traffic.
    /// - Parameter endpoint: The call to build.
    /// - Returns: The request, its encoded body and its timeout.
    /// - Throws: ``CourierError`` of kind `invalidRequest` or `encodingFailed`.
    public func prepare<E: Endpoint>(_ endpoint: E) throws(CourierError) -> PreparedRequest {
        try RequestBuilder.prepare(endpoint.request, configuration: configuration)
    }

    /// Sends the call and returns its decoded response.
    ///
    /// The request is built and checked first: a request that is invalid fails before any network
    /// traffic. Cancelling the calling task cancels the request and closes its connection.
    /// - Parameter endpoint: The call to send.
    /// - Returns: The endpoint's response: a decoded model, `Data`, or `Void`.
    /// - Throws: ``CourierError``; its ``CourierError/kind`` says what went wrong.
    public func send<E: Endpoint>(_ endpoint: E) async throws(CourierError) -> E.Response {
        try await send(endpoint, progress: nil)
    }

    /// Sends the call, reporting upload and download progress as bytes move.
    ///
    /// ```swift
    /// let avatar = try await social.send(SocialAPI.avatar(of: me)) { progress in
    ///     bar.value = progress.fractionCompleted ?? 0
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: The call to send.
    ///   - progress: Called from a background task with each change; keep it quick.
    /// - Returns: The endpoint's response.
    /// - Throws: ``CourierError``.
    public func send<E: Endpoint>(
        _ endpoint: E,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(CourierError) -> E.Response {
        try await decode(endpoint, progress: progress) { value, _ in value }
    }

    /// Sends the call and returns its decoded response with the status, header fields, final URL,
    /// attempt count and source.
    ///
    /// ```swift
    /// let response = try await movies.response(for: MovieAPI.popular(page: 1))
    /// if let next = response.headerFields[.link] { remember(next) }
    /// ```
    /// - Parameter endpoint: The call to send.
    /// - Returns: The decoded value and how it arrived.
    /// - Throws: ``CourierError``, as ``send(_:)`` does.
    public func response<E: Endpoint>(for endpoint: E) async throws(CourierError) -> DecodedResponse<E.Response> {
        try await decode(endpoint, progress: nil) { value, result in
            DecodedResponse(
                value: value,
                status: result.status,
                headerFields: result.headerFields,
                url: result.url,
                attempts: result.attempts,
                source: result.source,
                httpVersion: result.httpVersion,
                timings: result.timings
            )
        }
    }

    /// Sends the call with its body read into memory and decodes it as the endpoint says; `finish`
    /// makes the caller's value of the decoded one and the response with its facts.
    nonisolated(nonsending) private func decode<E: Endpoint, Value: Sendable>(
        _ endpoint: E,
        progress: (@Sendable (TransferProgress) -> Void)?,
        finish: @escaping @Sendable (E.Response, MiddlewareResponse) -> Value
    ) async throws(CourierError) -> Value {
        let request = endpoint.request
        let snapshot = self.snapshot
        let prepared = try RequestBuilder.prepare(request, snapshot: snapshot)
        // What reading needs, taken out of the request here: the call holds these, not the request.
        let decoding = request.decoding
        let decoder = ResponseJSONDecoder(for: request, configuration: snapshot.value)
        let errorFormat = snapshot.value.errorFormat
        let bodyLimit = snapshot.value.maximumResponseBodySize
        return try await perform(prepared, configuration: snapshot, delivery: .collected(upTo: bodyLimit), progress: progress) { result in
            let value = try ResponseReader.read(
                result.response,
                body: try await ResponseBody.data(of: result.body, upTo: bodyLimit),
                decoding: decoding,
                decoder: decoder,
                errorFormat: errorFormat,
                url: result.url
            )
            return finish(value, result)
        }
    }

    /// Sends the call and reports its decoded response, with the status, header fields, final URL,
    /// attempt count and source, to `completion` on the main actor.
    /// - Parameters:
    ///   - endpoint: The call to send.
    ///   - completion: Called exactly once, on the main actor.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func response<E: Endpoint>(
        for endpoint: E,
        completion: @escaping @MainActor @Sendable (Result<DecodedResponse<E.Response>, CourierError>) -> Void
    ) -> RequestHandle {
        RequestHandle.start({ try await self.response(for: endpoint) }, completion: completion)
    }

    /// Sends the call and reports the result to `completion` on the main actor.
    ///
    /// ```swift
    /// let handle = movies.send(MovieAPI.popular(page: 1)) { result in
    ///     if case .success(let page) = result { show(page.results) }
    /// }
    /// handle.cancel()   // completion then gets .failure with kind .cancelled, never a success
    /// ```
    /// - Parameters:
    ///   - endpoint: The call to send.
    ///   - completion: Called exactly once, on the main actor.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func send<E: Endpoint>(
        _ endpoint: E,
        completion: @escaping @MainActor @Sendable (Result<E.Response, CourierError>) -> Void
    ) -> RequestHandle {
        RequestHandle.start({ try await self.send(endpoint) }, completion: completion)
    }

    /// Cancels every request of this client that is in flight; each fails with
    /// ``CourierError/Kind/cancelled``. Closes every open WebSocket of the client with 1001
    /// (their messages end normally). Requests and sockets started afterwards are not affected.
    public func cancelAll() {
        inFlight.cancelAll()
        webSockets.closeAll()
    }

    /// How many requests of this client are in flight.
    public var inFlightCount: Int {
        inFlight.count
    }

    /// The number of requests in flight, now and after every change: drive a spinner with it.
    ///
    /// ```swift
    /// for await count in client.activity {
    ///     spinner.isAnimating = count > 0
    /// }
    /// ```
    /// Each access returns a new stream; it ends when its consuming task is cancelled. When counts
    /// change faster than they are read, only the newest is kept.
    public var activity: AsyncStream<Int> {
        inFlight.counts()
    }

    /// The line for calls under a per-host limit of `limit`.
    func hostCallQueue(limit: Int) -> HostCallQueue {
        hostCalls.withLock { queue in
            let limit = max(1, limit)
            if let queue, queue.limit == limit { return queue }
            let made = HostCallQueue(limit: limit)
            queue = made
            return made
        }
    }
}
