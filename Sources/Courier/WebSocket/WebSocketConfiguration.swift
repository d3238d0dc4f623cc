/// The limits and the ping policy of one WebSocket.
///
/// ```swift
/// let socket = try await client.webSocket(ChatAPI.room("lobby")) { socket in
///     socket.pingPolicy = .every(.seconds(15), timeout: .seconds(5))
///     socket.maximumMessageSize = 256 * 1024
/// }
/// ```
public struct WebSocketConfiguration: Sendable {
    /// The largest frame the server may send, in bytes; a larger one closes the socket with 1009
    /// (``WebSocketFailure/Reason/messageTooLarge``). 1 MiB by default.
    public var maximumFrameSize = 1 << 20
    /// The largest message the server may send, however many frames it takes, in bytes; a larger
    /// one closes the socket with 1009. 4 MiB by default.
    public var maximumMessageSize = 4 << 20
    /// How many bytes of received messages may wait for the reader. Past it the socket closes with
    /// 1009 and the reader, after the messages already received, gets
    /// ``WebSocketFailure/Reason/readerTooSlow``. 8 MiB by default.
    public var incomingBufferLimit = 8 << 20
    /// How many bytes of messages may be on their way out (sent but not yet written to the
    /// network). A `send` past it waits for room, or fails when ``failsSendWhenFull`` is set.
    /// 1 MiB by default; a single larger message is sent alone.
    public var outgoingBufferLimit = 1 << 20
    /// Whether a `send` that finds the outgoing buffer full fails at once
    /// (``WebSocketFailure/Reason/notConnected``) instead of waiting. `false` by default.
    public var failsSendWhenFull = false
    /// When to ping the server and how long to wait for its pong. Every 30 s by default.
    public var pingPolicy = WebSocketPingPolicy.every(.seconds(30))

    /// The defaults.
    public init() {}
}
