import Foundation
import HTTPTypes

/// An open WebSocket: messages in as an `AsyncSequence`, messages out with `send`.
///
/// ```swift
/// let socket = try await chat.webSocket(ChatAPI.room("lobby"))
/// try await socket.send(encoding: ChatMessage(text: "hello"))
/// for try await message in socket.messages(as: ChatMessage.self) {
///     show(message)
/// }
/// ```
///
/// The sequence ends (`nil`) after ``close(_:reason:)``; a close from the server or a failure ends
/// it with a ``CourierError`` of kind ``CourierError/Kind/webSocket`` whose
/// ``CourierError/webSocket`` says why. Cancelling the task that reads the messages closes the
/// socket with 1001 (``WebSocketCloseCode/goingAway``), as do ``Client/cancelAll()`` and
/// releasing the last reference to the socket.
public final class WebSocket: Sendable {
    /// The server's answer to the handshake (101, with its header fields).
    public let response: HTTPResponse
    let session: WebSocketSession
    private let encoder: JSONEncoder
    private let decoder: ResponseJSONDecoder

    init(response: HTTPResponse, session: WebSocketSession, encoder: JSONEncoder, decoder: ResponseJSONDecoder) {
        self.response = response
        self.session = session
        self.encoder = encoder
        self.decoder = decoder
    }

    deinit {
        session.closeInBackground(.goingAway, reason: "")
    }

    /// The messages from the server, in order, text and binary.
    public var messages: WebSocketMessages {
        WebSocketMessages(socket: self)
    }

    /// The messages from the server, each decoded as `Value` with the client's decoder (a text
    /// message's UTF-8 or a binary message's bytes as JSON).
    /// - Parameter type: The type of every message.
    /// - Returns: The decoded messages; a message that does not decode ends the sequence with
    ///   ``CourierError/Kind/decodingFailed`` and leaves the socket open.
    public func messages<Value: Decodable & Sendable>(as type: Value.Type) -> WebSocketDecodedMessages<Value> {
        WebSocketDecodedMessages(base: messages, decoder: decoder)
    }

    /// Sends a message; waits while the outgoing buffer is full
    /// (``WebSocketConfiguration/outgoingBufferLimit``).
    /// - Parameter message: The message.
    /// - Throws: A ``CourierError`` of kind ``CourierError/Kind/webSocket`` with
    ///   ``WebSocketFailure/Reason/notConnected`` when the socket has ended, however it ended (the
    ///   failure that ended it is the error's ``CourierError/underlyingError``), or the buffer is
    ///   full and ``WebSocketConfiguration/failsSendWhenFull`` is set: the message was not sent.
    ///   ``CourierError/Kind/cancelled`` as soon as the task is cancelled, whether it waited for
    ///   room or for the write; a message already handed to the connection may still go out.
    public func send(_ message: WebSocketMessage) async throws(CourierError) {
        try await session.send(message)
    }

    /// Sends `value` encoded as JSON with the client's encoder, as a text message.
    /// - Parameter value: The value.
    /// - Throws: ``CourierError/Kind/encodingFailed`` when `value` does not encode; otherwise as
    ///   ``send(_:)``.
    public func send<Value: Encodable>(encoding value: Value) async throws(CourierError) {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw CourierError(.encodingFailed, message: "The WebSocket message could not be encoded.", underlyingError: error)
        }
        try await session.send(.text(String(decoding: data, as: UTF8.self)))
    }

    /// Closes the socket with `code` and `reason`; the messages already received can still be
    /// read, then the sequence ends normally. Does nothing when the socket has ended.
    /// - Parameters:
    ///   - code: The close code; ``WebSocketCloseCode/normalClosure`` by default.
    ///   - reason: A short reason for the server (at most 123 bytes of UTF-8).
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        await session.close(code, reason: reason)
    }
}
