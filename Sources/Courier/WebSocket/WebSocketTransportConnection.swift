/// An open socket as a transport gives it: whole messages in, whole messages out.
///
/// The transport assembles frames into messages, answers pings, checks the server's frames
/// (masking, reserved bits, control frames, UTF-8, close codes, sizes) and replies to a close;
/// the policies above it (pings, buffers, closing on cancellation) are the client's.
public protocol WebSocketTransportConnection: Sendable {
    /// What the server sends, in order, for one reader. Finishes after ``WebSocketTransportEvent/closed(_:reason:)``;
    /// throws a ``CourierError`` of kind ``CourierError/Kind/webSocket`` when the server broke the
    /// protocol or a limit (the transport has closed the socket with the matching code), or when
    /// the connection ended without a close frame (``WebSocketCloseCode/abnormalClosure``).
    var events: AsyncThrowingStream<WebSocketTransportEvent, any Error> { get }

    /// Sends one message; returns once it is written to the network.
    /// - Parameter message: The message.
    /// - Throws: A ``CourierError`` when the socket is closed.
    func send(_ message: WebSocketMessage) async throws

    /// Hands `message` to the connection without waiting, and calls `written` once it has been
    /// written to the network or has failed. A message handed over cannot be withdrawn.
    ///
    /// The default implementation calls ``send(_:)`` in a task of its own; a transport whose
    /// writes report their end by themselves implements this directly.
    /// - Parameters:
    ///   - message: The message.
    ///   - written: Called once, with the write's outcome (a ``CourierError`` when the socket is closed).
    func send(_ message: WebSocketMessage, written: @escaping @Sendable (Result<Void, any Error>) -> Void)

    /// Sends a ping; its pong arrives in ``events``.
    /// - Throws: A ``CourierError`` when the socket is closed.
    func ping() async throws

    /// Sends a close frame with `code` and `reason` and ends the connection; does nothing when it
    /// has ended.
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: The reason, at most 123 bytes of UTF-8 (longer is cut).
    func close(_ code: WebSocketCloseCode, reason: String) async
}

/// What arrives on an open socket.
public enum WebSocketTransportEvent: Sendable, Hashable {
    /// A whole message.
    case message(WebSocketMessage)
    /// The answer to a ping.
    case pong
    /// The server closed the socket with `code` (``WebSocketCloseCode/noStatusReceived`` when its
    /// close frame had none) and `reason`; the transport has answered and closed the connection.
    case closed(WebSocketCloseCode, reason: String)
}

extension WebSocketTransportConnection {
    /// Calls ``send(_:)`` in a task of its own, then `written` with its outcome.
    /// - Parameters:
    ///   - message: The message.
    ///   - written: Called once, with the outcome of ``send(_:)``.
    public func send(_ message: WebSocketMessage, written: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        _ = ImmediateTask.start {
            do {
                try await send(message)
                written(.success(()))
            } catch {
                written(.failure(error))
            }
        }
    }
}
