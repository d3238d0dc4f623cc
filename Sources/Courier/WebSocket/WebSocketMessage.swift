import Foundation

/// One whole message on a WebSocket: text or binary, however many frames it came in.
///
/// ```swift
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     if case .text(let text) = message { show(text) }
/// }
/// ```
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message: valid UTF-8 on the wire.
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's size on the wire, in bytes: what the send and receive limits count.
    public var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }
}
