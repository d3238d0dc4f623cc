// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import NIOCore
import NIOWebSocket

/// An open socket on a NIO channel whose pipeline ends in a ``WebSocketFrameHandler``.
struct NIOWebSocketConnection: WebSocketTransportConnection {
    let channel: any Channel
    let events: AsyncThrowingStream<WebSocketTransportEvent, any Error>

    /// The largest frame a message is sent in. The frame encoder masks a frame's payload on the
    /// channel's event loop, which every channel of that loop shares: a message of many mebibytes
    /// in one frame would hold the loop (and other calls' connects) for as long as masking it takes.
    static let fragmentSize = 256 * 1024

    func send(_ message: WebSocketMessage) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            send(message) { continuation.resume(with: $0) }
        }
    }

    func send(_ message: WebSocketMessage, written: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        switch message {
        case .text(let text): sendFragments(of: channel.allocator.buffer(string: text), opcode: .text, written: written)
        case .binary(let data): sendFragments(of: channel.allocator.buffer(bytes: data), opcode: .binary, written: written)
        }
    }

    /// Writes `payload` as frames of at most ``fragmentSize`` bytes (RFC 6455 §5.4), each once the
    /// one before it is written, so that other work of the event loop runs between two.
    private func sendFragments(
        of payload: ByteBuffer,
        opcode: WebSocketOpcode,
        written: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        var rest = payload
        let piece = rest.readSlice(length: min(Self.fragmentSize, rest.readableBytes)) ?? ByteBuffer()
        let last = rest.readableBytes == 0
        let remaining = rest
        let frame = WebSocketFrame(fin: last, opcode: opcode, maskKey: .random(), data: piece)
        channel.writeAndFlush(frame).whenComplete { outcome in
            switch outcome {
            case .failure(let error): written(.failure(Self.notSent(error)))
            case .success where last: written(.success(()))
            case .success: sendFragments(of: remaining, opcode: .continuation, written: written)
            }
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
