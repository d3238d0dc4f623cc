/// What a ``Transport`` implements to open WebSockets: one method, the handshake.
///
/// A transport offers it through ``Transport/webSockets``; the client never asks a transport
/// what else it is. The client sends the handshake request through its middleware with this as
/// the last step, so authentication, logging, metrics and rate limits see it as any request.
///
/// ```swift
/// struct MyTransport: Transport {
///     var webSockets: (any WebSocketTransport)? { MyWebSocketOpener() }
///     // …
/// }
/// ```
public protocol WebSocketTransport: Sendable {
    /// Sends the handshake and returns the server's answer: with a 101, the open connection;
    /// with anything else, the status, header fields and body of the refusal.
    /// - Parameter request: The handshake request as the middleware passed it on, and the limits.
    /// - Returns: The server's answer.
    /// - Throws: A ``CourierError`` (or an error the client classifies) when no answer came:
    ///   ``CourierError/Kind/notConnected``, ``CourierError/Kind/timedOut``,
    ///   ``CourierError/Kind/untrustedServer``, or ``CourierError/Kind/transportFailed`` when the
    ///   platform cannot open WebSockets at all.
    func openWebSocket(_ request: WebSocketOpenRequest) async throws -> WebSocketHandshake
}

extension Transport {
    /// The transport's WebSocket side: none unless the transport says otherwise.
    public var webSockets: (any WebSocketTransport)? { nil }
}
