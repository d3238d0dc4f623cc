/// What ended a WebSocket, or kept it from opening: the detail of a ``CourierError`` of kind
/// ``CourierError/Kind/webSocket``.
///
/// ```swift
/// do {
///     for try await message in socket.messages { handle(message) }
/// } catch let error as CourierError {
///     switch error.webSocket?.reason {
///     case .closedByServer: reconnectLater(code: error.webSocket?.closeCode)
///     case .handshakeRefused: showLogin(status: error.status)
///     default: showAlert(error.localizedDescription)
///     }
/// }
/// ```
public struct WebSocketFailure: Sendable, Hashable, CustomStringConvertible {
    /// Why the socket ended. New reasons may be added; keep a `default` branch.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        enum Code: String, Sendable, Hashable {
            case closedByServer, protocolViolation, messageTooLarge, readerTooSlow, pingTimeout, handshakeRefused, notConnected
        }

        let code: Code

        /// The server closed the connection: with a close frame (its code and reason in
        /// ``WebSocketFailure/closeCode`` and ``WebSocketFailure/closeReason``), or without one
        /// (``WebSocketCloseCode/abnormalClosure``).
        public static let closedByServer = Reason(code: .closedByServer)
        /// The server broke RFC 6455: a masked frame, reserved bits without an extension, a
        /// fragmented or oversized control frame, a close with an invalid code, invalid UTF-8 in a
        /// text message (closed with 1007), or a frame out of sequence. Closed with 1002.
        public static let protocolViolation = Reason(code: .protocolViolation)
        /// A frame or message was larger than ``WebSocketConfiguration/maximumFrameSize`` or
        /// ``WebSocketConfiguration/maximumMessageSize``. Closed with 1009.
        public static let messageTooLarge = Reason(code: .messageTooLarge)
        /// Received messages waited unread past ``WebSocketConfiguration/incomingBufferLimit``.
        /// Closed with 1009; the messages received before the limit were delivered first.
        public static let readerTooSlow = Reason(code: .readerTooSlow)
        /// The server answered no ping within the ping policy's timeout
        /// (``WebSocketPingPolicy``).
        public static let pingTimeout = Reason(code: .pingTimeout)
        /// The server answered the handshake with another status than 101 (a 3xx included: RFC
        /// 6455 has no redirects); ``CourierError/status`` and ``CourierError/message`` say what
        /// it answered.
        public static let handshakeRefused = Reason(code: .handshakeRefused)
        /// The socket was not open: a send after it closed, or while the outgoing buffer was full
        /// and ``WebSocketConfiguration/failsSendWhenFull`` was set.
        public static let notConnected = Reason(code: .notConnected)

        /// The reason's name, e.g. `pingTimeout`.
        public var description: String { code.rawValue }
    }

    /// Why the socket ended.
    public var reason: Reason
    /// The close code: the server's, or the one the client closed with.
    public var closeCode: WebSocketCloseCode?
    /// The close frame's reason text, when there was one.
    public var closeReason: String?

    /// A failure.
    /// - Parameters:
    ///   - reason: Why the socket ended.
    ///   - closeCode: The close code, if any.
    ///   - closeReason: The close frame's reason text, if any.
    public init(_ reason: Reason, closeCode: WebSocketCloseCode? = nil, closeReason: String? = nil) {
        self.reason = reason
        self.closeCode = closeCode
        self.closeReason = closeReason
    }

    /// The reason and the close code, e.g. `closedByServer (1001)`.
    public var description: String {
        closeCode.map { "\(reason) (\($0))" } ?? reason.description
    }
}

extension CourierError {
    /// A WebSocket failure as a ``CourierError`` of kind ``CourierError/Kind/webSocket``.
    /// - Parameters:
    ///   - reason: Why the socket ended.
    ///   - closeCode: The close code, if any.
    ///   - closeReason: The close frame's reason text, if any.
    ///   - message: What happened, in a sentence.
    /// - Returns: The error.
    public static func webSocket(
        _ reason: WebSocketFailure.Reason,
        closeCode: WebSocketCloseCode? = nil,
        closeReason: String? = nil,
        message: String
    ) -> CourierError {
        var error = CourierError(.webSocket, message: message)
        error.webSocket = WebSocketFailure(reason, closeCode: closeCode, closeReason: closeReason)
        return error
    }
}
