// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOSSL
import OpenAPIRuntime

/// Courier's transport over AsyncHTTPClient (SwiftNIO): the fast path on Linux and servers.
///
/// ```swift
/// let movies = Client(backend: .movies, environment: .production, transport: .asyncHTTPClient())
/// ```
///
/// It talks to `HTTPClient` directly rather than through swift-openapi-async-http-client's
/// `AsyncHTTPClientTransport`, which parses two `URLComponents` per request, looks each response
/// header up before storing it (and force-unwraps its name), and cannot stream a body to or from a
/// file without copying every buffer. AsyncHTTPClient's and NIO's errors become ``CourierError``
/// kinds, also for failures while a body streams.
///
/// Lifetimes: the default `HTTPClient` (``AsyncHTTPClient/HTTPClient/courierShared``) lives for the
/// whole process and is never shut down. An `HTTPClient` you pass in stays yours: shut it down
/// after the last request.
public struct HTTPClientTransport: Transport, ClientTransport {
    /// The `HTTPClient` requests go through (hosts with public-key pins have their own, see
    /// ``init(trust:proxy:eventLoopGroup:configuration:)``).
    public let client: HTTPClient
    /// The codings the `HTTPClient`'s decompression decodes (and advertises).
    public let contentCodings: Set<ContentCoding>
    let deadline: TimeAmount
    /// One client per pinned host, whose connections are checked against that host's pins.
    let pinnedClients: [String: HTTPClient]
    /// The client for the hosts a proxy bypasses, with that proxy.
    let directClient: (client: HTTPClient, proxy: Proxy)?
    /// Whether ``shutdown()`` shuts the clients down: only those this transport created.
    let ownsClients: Bool
    /// What `wss` sockets trust: the roots of ``init(trust:proxy:eventLoopGroup:configuration:)``, or
    /// the system's.
    let webSocketTLS: TLSConfiguration
    /// The pins `wss` sockets are checked against, if any.
    let trust: ServerTrust?
    /// The proxy sockets go through: that of ``init(trust:clientIdentity:proxy:eventLoopGroup:configuration:)``.
    let webSocketProxy: Proxy?
    /// The event loop each request sent through the delegate API runs on.
    let eventLoopChoice: EventLoopChoice

    /// Creates the transport.
    /// - Parameters:
    ///   - client: The `HTTPClient` to send with.
    ///   - deadline: AsyncHTTPClient's own per-request deadline; Courier's timeouts usually end a
    ///     request first, and a request whose call ends sooner runs no timer of the transport's.
    ///   - contentCodings: The codings `client` decodes: `deflate` and `gzip` when its
    ///     configuration enables `decompression` (as ``AsyncHTTPClient/HTTPClient/courierConfiguration()``
    ///     does), none otherwise.
    public init(
        client: HTTPClient = .courierShared,
        deadline: Duration = .seconds(300),
        contentCodings: Set<ContentCoding> = [.deflate, .gzip]
    ) {
        self.init(client: client, directClient: nil, pinnedClients: [:], ownsClients: false, deadline: deadline, contentCodings: contentCodings)
    }

    init(
        client: HTTPClient,
        directClient: (client: HTTPClient, proxy: Proxy)?,
        pinnedClients: [String: HTTPClient],
        ownsClients: Bool,
        deadline: Duration,
        contentCodings: Set<ContentCoding>,
        webSocketTLS: TLSConfiguration = .makeClientConfiguration(),
        trust: ServerTrust? = nil,
        webSocketProxy: Proxy? = nil
    ) {
        self.webSocketTLS = webSocketTLS
        self.trust = trust
        self.webSocketProxy = webSocketProxy
        self.client = client
        self.directClient = directClient
        self.pinnedClients = pinnedClients
        self.ownsClients = ownsClients
        self.eventLoopChoice = EventLoopChoice(group: client.eventLoopGroup)
        self.contentCodings = contentCodings
        let (seconds, attoseconds) = deadline.components
        self.deadline = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The hosts whose connections are checked against their pins (those of the transport's
    /// ``Courier/ServerTrust``).
    public var pinnedHosts: Set<String> {
        Set(pinnedClients.keys)
    }

    /// The client for requests to `origin`: the pinned host's own, the one that bypasses the
    /// proxy, or the general one.
    func client(for origin: URL) -> HTTPClient {
        guard !pinnedClients.isEmpty || directClient != nil, let host = origin.host?.lowercased() else { return client }
        if let pinned = pinnedClients[host] { return pinned }
        if let directClient, directClient.proxy.bypasses(host) { return directClient.client }
        return client
    }

    /// Sends a request and delivers its response body as asked, in AsyncHTTPClient's own buffers.
    ///
    /// A body wanted whole in memory, for a request whose own body (if any) is in memory, goes
    /// through AsyncHTTPClient's delegate API: its `HTTPClient.Task` is cancelled directly when the
    /// ``ExchangeInterruption`` fires, so the caller's task waits for the response with no task in
    /// between, and the body is gathered on the request's event loop. Streamed bodies, transfers
    /// to and from files, and progress reports go through the async API, which only the
    /// cancellation of the waiting task ends, so they run in ``ExchangeInterruption/run(_:)``.
    /// - Parameter request: The request and how its response body is wanted.
    /// - Returns: The response, its body, and 2 attempts when a stale pooled connection made the
    ///   transport send the request again.
    /// - Throws: ``CourierError``.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            if Self.collectsInMemory(request) { return try await collect(request) }
            return try await request.interruption.run { try await self.exchange(request) }
        } catch {
            throw AsyncHTTPClientErrorClassifier.courierError(for: error, origin: request.origin)
        }
    }

    /// Sends a request through the async API: its body streamed, written to a file, or read with
    /// progress reports.
    private func exchange(_ request: TransportRequest) async throws -> TransportResponse {
        var clientRequest = try Self.clientRequest(request.request, origin: request.origin)
        var replayable = true
        if let payload = request.payload {
            // Bytes, files and forms alike: read a piece at a time as AsyncHTTPClient sends them.
            let reported = payload.body.reportingProgress(.upload, to: request.progress)
            let group = client(for: request.origin).eventLoopGroup
            clientRequest.body = .stream(LoopPacedBody(reported, group: group), length: Self.length(of: payload.body))
            replayable = payload.canBeSentAgain
        }
        let stopwatch = ExchangeStopwatch()
        let (response, attempts) = try await execute(clientRequest, method: request.request.method, replayable: replayable, origin: request.origin)
        let firstByte = ContinuousClock.now
        let head = Self.head(of: response)
        let body = try await deliver(response.body, of: head, for: request)
        // The async API tells neither when the request was sent nor when a streamed body ends.
        let ended = request.delivery.streams(head) ? nil : ContinuousClock.now
        let timings = stopwatch.timings(sent: nil, firstByte: firstByte, end: ended)
        let version = HTTPProtocolVersion(major: response.version.major, minor: response.version.minor)
        return TransportResponse(response: head, body: body, attempts: attempts, httpVersion: version, timings: timings)
    }

    /// Sends a request for a swift-openapi-runtime client; the response body streams as it
    /// arrives, and errors are ``CourierError``s.
    /// - Parameters:
    ///   - request: The request, its path below `baseURL`.
    ///   - body: The request body, if any.
    ///   - baseURL: Scheme, host and port.
    ///   - operationID: The operation's name.
    /// - Returns: The response and its body, unread.
    /// - Throws: ``CourierError``.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            var clientRequest = try Self.clientRequest(request, origin: baseURL)
            if let body {
                let group = client(for: baseURL).eventLoopGroup
                clientRequest.body = .stream(LoopPacedBody(body, group: group), length: Self.length(of: body))
            }
            let replayable = body.map { $0.iterationBehavior == .multiple } ?? true
            let (response, _) = try await execute(clientRequest, method: request.method, replayable: replayable, origin: baseURL)
            let head = Self.head(of: response)
            switch request.method {
            case .head, .connect: return (head, nil)
            default:
                let length = Self.decodedLength(of: head).map(HTTPBody.Length.known) ?? .unknown
                return (head, HTTPBody(ResponseChunks(body: response.body), length: length, iterationBehavior: .single))
            }
        } catch {
            throw AsyncHTTPClientErrorClassifier.courierError(for: error, origin: baseURL)
        }
    }

    /// Sends the request through AsyncHTTPClient; returns the response, its body not read yet, and
    /// how many times the request went out.
    private func execute(
        _ clientRequest: HTTPClientRequest,
        method: HTTPRequest.Method,
        replayable: Bool,
        origin: URL
    ) async throws -> (HTTPClientResponse, attempts: Int) {
        let client = client(for: origin)
        do {
            return (try await client.execute(clientRequest, timeout: deadline), 1)
        } catch let error where replayable && Self.mayRetry(method, after: error) {
            // A pooled connection the server had already closed (or spoiled with stray bytes)
            // failed before any response: an idempotent request goes once more, on a new one.
            return (try await client.execute(clientRequest, timeout: deadline), 2)
        }
    }

    /// The response body delivered as `request` asks.
    private func deliver(
        _ body: HTTPClientResponse.Body,
        of head: HTTPResponse,
        for request: TransportRequest
    ) async throws -> HTTPBody? {
        if request.request.method == .head || request.request.method == .connect { return nil }
        let delivery = request.delivery
        let successful = head.status.kind == .successful
        let total = ContentLength.bodyLength(of: head)
        if successful, let destination = delivery.destination {
            try await Self.write(body, to: destination, total: total, progress: request.progress)
            return nil
        }
        if successful, delivery.streamsSuccess {
            let length = Self.decodedLength(total, of: head).map(HTTPBody.Length.known) ?? .unknown
            let chunks = HTTPBody(ResponseChunks(body: body), length: length, iterationBehavior: .single)
            return chunks.reportingProgress(.download, expectedLength: total, to: request.progress)
        }
        let bytes = try await Self.collect(body, of: head, upTo: delivery.limit, total: total, progress: request.progress)
        return bytes.readableBytes == 0 ? nil : HTTPBody(bytes.withUnsafeReadableBytes { ArraySlice($0) })
    }

    /// Reads a whole body, at most `limit` bytes after decoding: with AsyncHTTPClient's own
    /// `collect(upTo:)` (usually one buffer) unless someone listens for progress.
    private static func collect(
        _ body: HTTPClientResponse.Body,
        of head: HTTPResponse,
        upTo limit: Int,
        total: Int64?,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> ByteBuffer {
        if let length = decodedLength(total, of: head), length > limit {
            throw CourierError.bodyTooLarge(length: length, limit: limit)
        }
        var collected = ByteBuffer()
        do {
            if let progress {
                progress(TransferProgress(direction: .download, completedBytes: 0, totalBytes: total))
                for try await buffer in body {
                    try Task.checkCancellation()
                    guard collected.readableBytes + buffer.readableBytes <= limit else {
                        throw CourierError.bodyTooLarge(length: nil, limit: limit)
                    }
                    collected.writeImmutableBuffer(buffer)
                    progress(TransferProgress(direction: .download, completedBytes: Int64(collected.readableBytes), totalBytes: total))
                }
            } else {
                collected = try await body.collect(upTo: limit)
            }
        } catch let error as CourierError {
            throw error
        } catch is NIOTooManyBytesError {
            throw CourierError.bodyTooLarge(length: nil, limit: limit)
        } catch {
            throw CourierError.incompleteBody(after: AsyncHTTPClientErrorClassifier.courierError(for: error))
        }
        // A cancelled task's body can end early without an error: not a whole response.
        try Task.checkCancellation()
        return collected
    }

    /// Whether a request that failed with `error` before its response may be sent again, its body
    /// being one that can be read again: only an idempotent one, and only when a kept-alive
    /// connection was closed under it, or its HTTP/2 stream was closed unanswered (a stream above
    /// a GOAWAY's last stream id, or one the server refused).
    static func mayRetry(_ method: HTTPRequest.Method, after error: any Error) -> Bool {
        guard [.get, .head, .options, .put, .delete].contains(method) else { return false }
        if AsyncHTTPClientErrorClassifier.isUnansweredStream(error) { return true }
        if let clientError = error as? HTTPClientError { return clientError == .remoteConnectionClosed }
        if let channelError = error as? ChannelError { return channelError == .ioOnClosedChannel || channelError == .eof }
        if let ioError = error as? IOError { return [ECONNRESET, EPIPE].contains(ioError.errnoCode) }
        return false
    }

    /// The request AsyncHTTPClient sends: Courier has already percent-encoded the path and query.
    static func clientRequest(_ request: HTTPRequest, origin: URL) throws -> HTTPClientRequest {
        var clientRequest = HTTPClientRequest(url: url(of: request, origin: origin))
        clientRequest.method = HTTPMethod(rawValue: request.method.rawValue)
        clientRequest.headers = headers(of: request)
        return clientRequest
    }

    /// The full URL of `request` below `origin`.
    static func url(of request: HTTPRequest, origin: URL) -> String {
        var origin = origin.absoluteString
        if origin.hasSuffix("/") { origin.removeLast() }
        return origin + (request.path ?? "/")
    }

    /// The request's header fields as AsyncHTTPClient takes them.
    static func headers(of request: HTTPRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields where field.name != .cookie {
            headers.add(name: field.name.rawName, value: field.value)
        }
        // HTTPFields keeps each cookie as a field of its own; HTTP/1.1 wants one `Cookie` line.
        if let cookies = request.headerFields.value(of: .cookie) {
            headers.add(name: HTTPField.Name.cookie.rawName, value: cookies)
        }
        return headers
    }

    /// The body's length after decoding, when the head tells it: `Content-Length` counts the
    /// encoded bytes of a compressed body.
    static func decodedLength(of head: HTTPResponse) -> Int64? {
        guard !head.headerFields.contains(.contentEncoding) else { return nil }
        return ContentLength.bodyLength(of: head)
    }

    /// The body's length after decoding, `total` being the head's `Content-Length` already read.
    static func decodedLength(_ total: Int64?, of head: HTTPResponse) -> Int64? {
        head.headerFields.contains(.contentEncoding) ? nil : total
    }

    static func length(of body: HTTPBody) -> HTTPClientRequest.Body.Length {
        if case .known(let length) = body.length { return .known(length) }
        return .unknown
    }

    /// Status and header fields; a header whose name HTTP does not allow is left out.
    static func head(of response: HTTPClientResponse) -> HTTPResponse {
        head(status: response.status, headers: response.headers)
    }

    /// Status and header fields; a header whose name HTTP does not allow is left out.
    static func head(status: HTTPResponseStatus, headers: HTTPHeaders) -> HTTPResponse {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: Int(status.code)), headerFields: fields)
    }
}

extension Transport where Self == HTTPClientTransport {
    /// The AsyncHTTPClient transport: recommended on Linux, for servers and command-line tools.
    /// - Parameter client: The `HTTPClient`; Courier's shared fail-fast client by default.
    /// - Returns: A transport for ``Courier/Client``.
    public static func asyncHTTPClient(_ client: HTTPClient = .courierShared) -> HTTPClientTransport {
        HTTPClientTransport(client: client)
    }
}

extension ClientTransport where Self == HTTPClientTransport {
    /// The AsyncHTTPClient transport, for clients generated by swift-openapi-generator.
    /// - Parameter client: The `HTTPClient`; Courier's shared fail-fast client by default.
    /// - Returns: A transport for a generated client.
    public static func asyncHTTPClient(_ client: HTTPClient = .courierShared) -> HTTPClientTransport {
        HTTPClientTransport(client: client)
    }
}
#endif
