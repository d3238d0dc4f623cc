import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One request as a ``Transport`` receives it: the request, its body, and how its response body is
/// wanted.
public struct TransportRequest: Sendable {
    /// Method, scheme, authority, path with query, and header fields.
    public var request: HTTPRequest
    /// The request body, if any: bytes, a stream, a file or a multipart form, with its length and
    /// whether it can be sent again. A transport that handles files itself reads its
    /// ``RequestPayload/source``; any other reads its ``RequestPayload/body``.
    public var payload: RequestPayload?
    /// The request body as a stream, if any; setting it makes the payload a stream of it.
    public var body: HTTPBody? {
        get { payload?.body }
        set { payload = RequestPayload.passedOn(payload, as: newValue) }
    }
    /// The file the body streams from, when it is one.
    @available(*, deprecated, message: "The body is one value: read `payload`.")
    public var bodyFile: URL? { payload?.file }
    /// Scheme, host and port: what `request.path` is resolved against.
    public var origin: URL
    /// The call's name, for logs (the OpenAPI operation ID).
    public var name: String
    /// How the response body is wanted.
    public var delivery: ResponseBodyDelivery
    /// Receives upload and download progress; `nil` when nobody listens.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Whether the client's own cache handles this request (a cache middleware said so in
    /// ``MiddlewareContext/isCachedByClient``, as ``CachingMiddleware`` does): a transport with a
    /// cache of its own (a URLSession with a `URLCache`) neither serves nor stores it, so that two
    /// caches never stack.
    public var isCachedByClient = false
    /// What ends the exchange early (the attempt's deadline, ``Client/cancelAll()``) without
    /// cancelling the caller's task: the transport ends the exchange when it fires (see
    /// ``ExchangeInterruption``). ``ExchangeInterruption/none`` when only task cancellation ends it.
    public var interruption = ExchangeInterruption.none

    /// Creates a request for a transport.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body, if any.
    ///   - origin: Scheme, host and port.
    ///   - name: The call's name.
    ///   - delivery: How the response body is wanted.
    ///   - progress: Receives transfer progress.
    public init(
        request: HTTPRequest,
        body: HTTPBody? = nil,
        origin: URL,
        name: String,
        delivery: ResponseBodyDelivery,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.request = request
        self.payload = body.map { .stream($0) }
        self.origin = origin
        self.name = name
        self.delivery = delivery
        self.progress = progress
    }

    /// Creates a request for a transport, its body one payload.
    /// - Parameters:
    ///   - request: The request.
    ///   - payload: Its body, if any.
    ///   - origin: Scheme, host and port.
    ///   - name: The call's name.
    ///   - delivery: How the response body is wanted.
    ///   - progress: Receives transfer progress.
    public init(
        request: HTTPRequest,
        payload: RequestPayload?,
        origin: URL,
        name: String,
        delivery: ResponseBodyDelivery,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.init(request: request, origin: origin, name: name, delivery: delivery, progress: progress)
        self.payload = payload
    }

    /// Creates a request for a transport whose body may be a file.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body, if any.
    ///   - bodyFile: A file to send as the body instead; one that cannot be read leaves `body`.
    ///   - origin: Scheme, host and port.
    ///   - name: The call's name.
    ///   - delivery: How the response body is wanted.
    ///   - progress: Receives transfer progress.
    @available(*, deprecated, message: "The body is one value: use init(request:payload:origin:name:delivery:progress:) with RequestPayload.file(_:).")
    public init(
        request: HTTPRequest,
        body: HTTPBody? = nil,
        bodyFile: URL?,
        origin: URL,
        name: String,
        delivery: ResponseBodyDelivery,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.init(request: request, body: body, origin: origin, name: name, delivery: delivery, progress: progress)
        if let bodyFile, let file = try? RequestPayload.file(bodyFile) { payload = file }
    }
}
