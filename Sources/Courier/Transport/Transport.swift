import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What moves a ``Client``'s requests over the network: one method, one exchange.
///
/// The client hands over a ``TransportRequest``: the request, its body, and how the response body
/// is wanted (``ResponseBodyDelivery``: collected in memory up to a limit, written to a file, or
/// streamed). Every transport is reached the same way: URLSession (``SessionTransport``),
/// AsyncHTTPClient (`HTTPClientTransport` in the `CourierAsyncHTTPClient` product), and any
/// swift-openapi-runtime `ClientTransport` through ``OpenAPITransport``.
///
/// ```swift
/// let client = Client(baseURL: base, transport: .urlSession())
/// let generated = Client(baseURL: base, transport: OpenAPITransport(existingClientTransport))
/// ```
public protocol Transport: Sendable {
    /// The content codings this transport decodes, and therefore advertises in `Accept-Encoding`.
    ///
    /// The client refuses a body in any other coding (unless the request asked for it itself)
    /// with ``CourierError/Kind/invalidResponse`` naming the coding, rather than handing encoded
    /// bytes to the decoder.
    var contentCodings: Set<ContentCoding> { get }

    /// Sends one request and returns its response, its body delivered as `request.delivery` says.
    ///
    /// The client waits for the response in the caller's own task. When
    /// `request.interruption` fires (the attempt's deadline passed, or ``Client/cancelAll()``),
    /// the transport ends the exchange and throws, as it does when the task is cancelled; work
    /// that only task cancellation can end goes in ``ExchangeInterruption/run(_:)``. Once `send`
    /// has returned, the interruption no longer applies: a streamed body is read past it.
    /// - Parameter request: The request, its body, its origin and how the response body is wanted.
    /// - Returns: The response, its body, and how many times the request went out.
    /// - Throws: A ``CourierError`` (or an error the client classifies): ``CourierError/Kind/responseTooLarge``
    ///   for a body over the delivery's limit, ``CourierError/Kind/invalidResponse`` for a response
    ///   that is not valid HTTP, a head over the transport's size limit included.
    func send(_ request: TransportRequest) async throws -> TransportResponse

    /// The transport's WebSocket side, which opens sockets for ``Client/webSocket(_:configure:)``;
    /// `nil` (the default) when the transport has none.
    var webSockets: (any WebSocketTransport)? { get }

    /// The hosts whose connections this transport checks against public-key pins (a
    /// ``ServerTrust``'s); none by default. A call to a host in
    /// ``Configuration/hostsRequiringPins`` that is not here is refused before it is sent.
    var pinnedHosts: Set<String> { get }
}

extension Transport {
    /// None: a transport pins nothing unless it says so.
    public var pinnedHosts: Set<String> { [] }
}
