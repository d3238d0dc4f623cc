import Foundation
import HTTPTypes

/// What a ``WebSocketTransport`` opens: the handshake request and the socket's limits.
public struct WebSocketOpenRequest: Sendable {
    /// The handshake request as the middleware passed it on: `GET`, with the endpoint's path,
    /// query and header fields, and whatever the middleware added. Its scheme is `http` or
    /// `https`; the socket is `ws` or `wss` accordingly.
    public var request: HTTPRequest
    /// Scheme, host and port of the backend.
    public var origin: URL
    /// How long the connection and the handshake may take.
    public var timeout: Duration
    /// The largest frame the server may send, in bytes.
    public var maximumFrameSize: Int
    /// The largest message the server may send, in bytes.
    public var maximumMessageSize: Int

    /// A request to open a socket.
    /// - Parameters:
    ///   - request: The handshake request.
    ///   - origin: Scheme, host and port of the backend.
    ///   - timeout: How long the connection and the handshake may take.
    ///   - maximumFrameSize: The largest frame the server may send.
    ///   - maximumMessageSize: The largest message the server may send.
    public init(request: HTTPRequest, origin: URL, timeout: Duration, maximumFrameSize: Int, maximumMessageSize: Int) {
        self.request = request
        self.origin = origin
        self.timeout = timeout
        self.maximumFrameSize = maximumFrameSize
        self.maximumMessageSize = maximumMessageSize
    }
}
