// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
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
public struct HTTPClientTransport: ClientTransport, BodyCollectingTransport {
    /// The `HTTPClient` requests go through (hosts with public-key pins have their own, see
    /// ``init(trust:eventLoopGroup:configuration:)``).
    public let client: HTTPClient
    private let deadline: TimeAmount
    /// One client per pinned host, whose connections are checked against that host's pins.
    let pinnedClients: [String: HTTPClient]
    /// Whether ``shutdown()`` shuts the clients down: only those this transport created.
    let ownsClients: Bool

    /// Creates the transport.
    /// - Parameters:
    ///   - client: The `HTTPClient` to send with.
    ///   - deadline: AsyncHTTPClient's own per-request deadline; Courier's timeouts usually end a
    ///     request first.
    public init(client: HTTPClient = .courierShared, deadline: Duration = .seconds(300)) {
        self.init(client: client, pinnedClients: [:], ownsClients: false, deadline: deadline)
    }

    init(client: HTTPClient, pinnedClients: [String: HTTPClient], ownsClients: Bool, deadline: Duration) {
        self.client = client
        self.pinnedClients = pinnedClients
        self.ownsClients = ownsClients
        let (seconds, attoseconds) = deadline.components
        self.deadline = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The client for requests to `origin`: the pinned host's own, or the general one.
    func client(for origin: URL) -> HTTPClient {
        guard !pinnedClients.isEmpty, let host = origin.host?.lowercased() else { return client }
        return pinnedClients[host] ?? client
    }

    /// Sends a request; errors are ``CourierError``s.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            let (response, head) = try await execute(request, body: body, baseURL: baseURL)
            switch request.method {
            case .head, .connect: return (head, nil)
            default:
                let length = Self.decodedLength(of: head).map(HTTPBody.Length.known) ?? .unknown
                return (head, HTTPBody(ResponseChunks(body: response.body), length: length, iterationBehavior: .single))
            }
        } catch {
            throw AsyncHTTPClientErrorClassifier.courierError(for: error)
        }
    }

    /// Sends a request and reads the whole response body with AsyncHTTPClient's own
    /// `collect(upTo:)`; errors are ``CourierError``s.
    package func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        collectingUpTo limit: Int
    ) async throws -> (HTTPResponse, HTTPBody.ByteChunk) {
        do {
            let (response, head) = try await execute(request, body: body, baseURL: baseURL)
            if request.method == .head || request.method == .connect { return (head, []) }
            if let length = Self.decodedLength(of: head), length > limit {
                throw CourierError.bodyTooLarge(length: length, limit: limit)
            }
            let buffer: ByteBuffer
            do {
                buffer = try await response.body.collect(upTo: limit)
            } catch is NIOTooManyBytesError {
                throw CourierError.bodyTooLarge(length: nil, limit: limit)
            } catch {
                throw CourierError.incompleteBody(after: AsyncHTTPClientErrorClassifier.courierError(for: error))
            }
            // A cancelled task's body can end early without an error: not a whole response.
            try Task.checkCancellation()
            return (head, buffer.withUnsafeReadableBytes { ArraySlice($0) })
        } catch {
            throw AsyncHTTPClientErrorClassifier.courierError(for: error)
        }
    }

    /// Sends the request through AsyncHTTPClient; the response's head as `HTTPResponse`, its body
    /// not read yet.
    private func execute(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL
    ) async throws -> (HTTPClientResponse, HTTPResponse) {
        var clientRequest = try Self.clientRequest(request, origin: baseURL)
        if let body {
            clientRequest.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: Self.length(of: body))
        }
        let client = client(for: baseURL)
        do {
            let response = try await client.execute(clientRequest, timeout: deadline)
            return (response, Self.head(of: response))
        } catch let error where Self.mayRetry(request, body: body, after: error) {
            // A pooled connection the server had already closed (or spoiled with stray bytes)
            // failed before any response: an idempotent request goes once more, on a new one.
            let response = try await client.execute(clientRequest, timeout: deadline)
            return (response, Self.head(of: response))
        }
    }

    /// Whether a request that failed with `error` before its response may be sent again: only an
    /// idempotent one whose body can be read again, and only when a kept-alive connection was
    /// closed under it.
    static func mayRetry(_ request: HTTPRequest, body: HTTPBody?, after error: any Error) -> Bool {
        guard [.get, .head, .options, .put, .delete].contains(request.method),
            body == nil || body?.iterationBehavior == .multiple
        else { return false }
        if let clientError = error as? HTTPClientError { return clientError == .remoteConnectionClosed }
        if let channelError = error as? ChannelError { return channelError == .ioOnClosedChannel || channelError == .eof }
        if let ioError = error as? IOError { return [ECONNRESET, EPIPE].contains(ioError.errnoCode) }
        return false
    }

    /// The request AsyncHTTPClient sends: Courier has already percent-encoded the path and query.
    static func clientRequest(_ request: HTTPRequest, origin: URL) throws -> HTTPClientRequest {
        var origin = origin.absoluteString
        if origin.hasSuffix("/") { origin.removeLast() }
        var clientRequest = HTTPClientRequest(url: origin + (request.path ?? "/"))
        clientRequest.method = HTTPMethod(rawValue: request.method.rawValue)
        clientRequest.headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields where field.name != .cookie {
            clientRequest.headers.add(name: field.name.rawName, value: field.value)
        }
        // HTTPFields keeps each cookie as a field of its own; HTTP/1.1 wants one `Cookie` line.
        if let cookies = request.headerFields[.cookie] {
            clientRequest.headers.add(name: HTTPField.Name.cookie.rawName, value: cookies)
        }
        return clientRequest
    }

    /// The body's length after decoding, when the head tells it: `Content-Length` counts the
    /// encoded bytes of a compressed body.
    static func decodedLength(of head: HTTPResponse) -> Int64? {
        guard head.headerFields[.contentEncoding] == nil else { return nil }
        return ContentLength.value(in: head.headerFields)
    }

    static func length(of body: HTTPBody) -> HTTPClientRequest.Body.Length {
        if case .known(let length) = body.length { return .known(length) }
        return .unknown
    }

    /// Status and header fields; a header whose name HTTP does not allow is left out.
    static func head(of response: HTTPClientResponse) -> HTTPResponse {
        var fields = HTTPFields()
        fields.reserveCapacity(response.headers.count)
        for (name, value) in response.headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields)
    }
}

extension ClientTransport where Self == HTTPClientTransport {
    /// The AsyncHTTPClient transport: recommended on Linux, for servers and command-line tools.
    /// - Parameter client: The `HTTPClient`; Courier's shared fail-fast client by default.
    /// - Returns: A transport for ``Courier/Client``.
    public static func asyncHTTPClient(_ client: HTTPClient = .courierShared) -> HTTPClientTransport {
        HTTPClientTransport(client: client)
    }
}
#endif
