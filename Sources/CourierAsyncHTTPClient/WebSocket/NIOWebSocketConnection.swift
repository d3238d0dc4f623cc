// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import NIOCore
import NIOWebSocket

/// An open socket on a NIO channel whose pipeline ends in a ``WebSocketFrameHandler``.
struct NIOWebSocketConnection: WebSocketTransportConnection {
    let channel: any Channel
    let events: AsyncThrowingStream<WebSocketTransportEvent, any Error>

    func send(_ message: WebSocketMessage) async throws {
        try await write(frame(of: message))
    }

    func send(_ message: WebSocketMessage, written: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        channel.writeAndFlush(frame(of: message)).whenComplete { outcome in
            written(outcome.mapError(Self.notSent))
        }
    }

    private func frame(of message: WebSocketMessage) -> WebSocketFrame {
        switch message {
        case .text(let text):
            WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: channel.allocator.buffer(string: text))
        case .binary(let data):
            WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: channel.allocator.buffer(bytes: data))
        }
    }

    func ping() async throws {
        try await write(WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: channel.allocator.buffer(capacity: 0)))
    }

    func close(_ code: WebSocketCloseCode, reason: String) async {
        var payload = channel.allocator.buffer(capacity: 2 + min(reason.utf8.count, 123))
        if code.isSendable {
            payload.writeInteger(code.rawValue)
            payload.writeString(Self.truncated(reason, toUTF8Count: 123))
        }
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
        channel.writeAndFlush(frame, promise: nil)
        try? await channel.closeFuture.get()
    }

    private func write(_ frame: WebSocketFrame) async throws {
        do {
            try await channel.writeAndFlush(frame)
        } catch {
            throw Self.notSent(error)
        }
    }

    /// A write's error as the app reads it.
    private static func notSent(_ error: any Error) -> any Error {
        if error is CourierError { return error }
        var failure = CourierError.webSocket(.notConnected, message: "The WebSocket is not connected; the message was not sent.")
        failure.underlyingError = error
        return failure
    }

    /// The longest prefix of `text`, whole characters only, of at most `limit` bytes of UTF-8.
    static func truncated(_ text: String, toUTF8Count limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + character.utf8.count <= limit else { break }
            result.append(character)
        }
        return result
    }
}
#endif
