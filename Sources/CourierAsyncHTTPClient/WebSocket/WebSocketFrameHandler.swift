// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOWebSocket

/// The open socket's frames, on its event loop: whole messages to the client, pings answered,
/// every RFC 6455 rule a server may break checked, and the close handshake.
///
/// Each broken rule fails the socket once: the events end with a ``CourierError`` of kind
/// `webSocket` saying which rule; decoding stops (the rest of the input is read and dropped);
/// a close frame with the matching code (1002 for a protocol error, 1007 for invalid UTF-8, 1009
/// past a size limit) goes out, then the end of the client's output; the connection closes at the
/// server's end of stream, or after ``closeTimeout``. Closing at once would reset a connection
/// with unread input and lose the close frame on its way.
final class WebSocketFrameHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long a close waits for the server's close before the connection is dropped.
    static let closeTimeout: TimeAmount = .seconds(1)
    /// How long a failed socket reads and drops the server's input, waiting for its end of
    /// stream, before the connection is dropped.
    static let failureCloseTimeout: TimeAmount = .seconds(5)

    private let continuation: AsyncThrowingStream<WebSocketTransportEvent, any Error>.Continuation
    private let maximumMessageSize: Int
    /// The message being assembled from fragments: its opcode and the data so far.
    private var partial: (opcode: WebSocketOpcode, data: ByteBuffer)?
    private var closeSent = false
    private var finished = false

    init(continuation: AsyncThrowingStream<WebSocketTransportEvent, any Error>.Continuation, maximumMessageSize: Int) {
        self.continuation = continuation
        self.maximumMessageSize = maximumMessageSize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        let frame = unwrapInboundIn(data)
        if frame.maskKey != nil {
            return fail(context, .protocolViolation, .protocolError, "The server sent a masked frame (RFC 6455 §5.1).")
        }
        if frame.rsv1 || frame.rsv2 || frame.rsv3 {
            return fail(context, .protocolViolation, .protocolError, "The server set reserved bits without an extension that defines them.")
        }
        switch frame.opcode {
        case .ping:
            guard !closeSent else { return }
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.data)
            send(context, pong, thenClose: false)
        case .pong:
            continuation.yield(.pong)
        case .connectionClose:
            receiveClose(context, frame.data)
        case .text, .binary:
            guard partial == nil else {
                return fail(context, .protocolViolation, .protocolError, "The server began a new message before finishing the previous one.")
            }
            guard frame.data.readableBytes <= maximumMessageSize else { return failTooLarge(context) }
            if frame.fin {
                deliver(context, opcode: frame.opcode, data: frame.data)
            } else {
                partial = (frame.opcode, frame.data)
            }
        case .continuation:
            guard var message = partial else {
                return fail(context, .protocolViolation, .protocolError, "The server sent a continuation frame with no message to continue.")
            }
            guard message.data.readableBytes + frame.data.readableBytes <= maximumMessageSize else { return failTooLarge(context) }
            partial = nil
            var data = frame.data
            message.data.writeBuffer(&data)
            if frame.fin {
                deliver(context, opcode: message.opcode, data: message.data)
            } else {
                partial = message
            }
        default:
            fail(context, .protocolViolation, .protocolError, "The server sent a frame with the unknown opcode \(frame.opcode).")
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        guard !closeSent else {
            promise?.fail(CourierError.webSocket(.notConnected, message: "The WebSocket is closing; the message was not sent."))
            return
        }
        if frame.opcode == .connectionClose {
            closeSent = true
            context.eventLoop.scheduleTask(in: Self.closeTimeout) { [channel = context.channel] in
                channel.close(promise: nil)
            }
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After a failure the input is dropped; what the decoder says of it no longer matters.
        guard !finished else { return }
        switch error as? NIOWebSocketError {
        case .invalidFrameLength:
            failTooLarge(context)
        case .fragmentedControlFrame:
            fail(context, .protocolViolation, .protocolError, "The server fragmented a control frame.")
        case .multiByteControlFrameLength:
            fail(context, .protocolViolation, .protocolError, "The server sent a control frame longer than 125 bytes.")
        default:
            finish(throwing: Self.dropped(error))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if closeSent {
            finish(throwing: nil)
        } else {
            finish(throwing: Self.dropped(nil))
        }
        context.fireChannelInactive()
    }

    /// The server's close: checked, answered (unless the client closed first), then the connection ends.
    private func receiveClose(_ context: ChannelHandlerContext, _ payload: ByteBuffer) {
        var payload = payload
        let code: WebSocketCloseCode
        switch payload.readableBytes {
        case 0:
            code = .noStatusReceived
        case 1:
            return fail(context, .protocolViolation, .protocolError, "The server sent a close frame of one byte.")
        default:
            code = WebSocketCloseCode(rawValue: payload.readInteger(as: UInt16.self) ?? 0)
            guard code.isSendable else {
                return fail(context, .protocolViolation, .protocolError, "The server closed with the invalid close code \(code.rawValue).")
            }
        }
        guard let reason = Self.validUTF8(payload) else {
            return fail(context, .protocolViolation, .invalidPayload, "The server's close reason is not valid UTF-8.")
        }
        if !closeSent {
            closeSent = true
            var echo = context.channel.allocator.buffer(capacity: 2)
            if code != .noStatusReceived { echo.writeInteger(code.rawValue) }
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: echo)
            continuation.yield(.closed(code, reason: reason))
            finish(throwing: nil)
            send(context, frame, thenClose: true)
            return
        }
        finish(throwing: nil)
        context.close(promise: nil)
    }

    private func deliver(_ context: ChannelHandlerContext, opcode: WebSocketOpcode, data: ByteBuffer) {
        if opcode == .text {
            guard let text = Self.validUTF8(data) else {
                return fail(context, .protocolViolation, .invalidPayload, "The server sent a text message that is not valid UTF-8.")
            }
            continuation.yield(.message(.text(text)))
        } else {
            continuation.yield(.message(.binary(Data(data.readableBytesView))))
        }
    }

    private func failTooLarge(_ context: ChannelHandlerContext) {
        fail(
            context,
            .messageTooLarge,
            .messageTooLarge,
            "The server sent a frame or message larger than the socket's limit (maximumFrameSize, maximumMessageSize), or a frame length past 2^63-1."
        )
    }

    /// Fails the socket: a close frame with `code`, the connection closed, the events ended with the error.
    private func fail(_ context: ChannelHandlerContext, _ reason: WebSocketFailure.Reason, _ code: WebSocketCloseCode, _ message: String) {
        guard !finished else { return }
        partial = nil
        finish(throwing: CourierError.webSocket(reason, closeCode: code, message: message))
        if closeSent {
            context.close(promise: nil)
            return
        }
        closeSent = true
        // The decoder may be in an error state (a frame over the limit): nothing reaches it again.
        try? context.pipeline.syncOperations.addHandler(InputDiscardingHandler(), position: .first)
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.writeInteger(code.rawValue)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
        let channel = context.channel
        context.eventLoop.scheduleTask(in: Self.failureCloseTimeout) { channel.close(promise: nil) }
        send(context, frame) { written in
            guard case .success = written else { return channel.close(promise: nil) }
            // A transport that cannot end its output alone (some TLS stacks) waits for the bound.
            channel.close(mode: .output, promise: nil)
        }
    }

    /// Writes a frame of the handler's own on the next tick of the event loop: frames that came
    /// with the 101 are read while the HTTP decoder is still leaving the pipeline, and a write
    /// then would pass through it.
    private func send(_ context: ChannelHandlerContext, _ frame: WebSocketFrame, thenClose: Bool) {
        let channel = context.channel
        send(context, frame) { _ in
            if thenClose { channel.close(promise: nil) }
        }
    }

    /// Writes a frame as above, then calls `written` with the write's outcome.
    private func send(_ context: ChannelHandlerContext, _ frame: WebSocketFrame, written: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            bound.value.writeAndFlush(NIOAny(frame)).whenComplete(written)
        }
    }

    private func finish(throwing error: CourierError?) {
        guard !finished else { return }
        finished = true
        continuation.finish(throwing: error)
    }

    /// A connection that ended without a close frame.
    private static func dropped(_ error: (any Error)?) -> CourierError {
        var failure = CourierError.webSocket(.closedByServer, closeCode: .abnormalClosure, message: "The WebSocket connection ended without a close frame.")
        failure.underlyingError = error
        return failure
    }

    /// The bytes as a string, or `nil` when they are not valid UTF-8.
    static func validUTF8(_ buffer: ByteBuffer) -> String? {
        var decoder = UTF8()
        var iterator = buffer.readableBytesView.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        return String(decoding: buffer.readableBytesView, as: UTF8.self)
    }
}
#endif
