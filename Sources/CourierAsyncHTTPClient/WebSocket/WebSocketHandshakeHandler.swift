// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Reads the server's answer to the handshake. A 101 with the right `Sec-WebSocket-Accept`
/// turns the pipeline into a WebSocket one (the HTTP codec out, the frame codec and a
/// ``WebSocketFrameHandler`` in, any bytes the server sent after the 101 passed on to them);
/// anything else is returned with its body (at most 64 KiB) and the connection closed.
final class WebSocketHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    static let bodyLimit = 64 * 1024

    private let upgrader: NIOWebSocketClientUpgrader
    private let promise: EventLoopPromise<WebSocketHandshake>
    private let requestEncoder: HTTPRequestEncoder
    private let responseDecoder: ByteToMessageHandler<HTTPResponseDecoder>
    private let maximumFrameSize: Int
    private let maximumMessageSize: Int
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var done = false

    init(
        upgrader: NIOWebSocketClientUpgrader,
        promise: EventLoopPromise<WebSocketHandshake>,
        requestEncoder: HTTPRequestEncoder,
        responseDecoder: ByteToMessageHandler<HTTPResponseDecoder>,
        maximumFrameSize: Int,
        maximumMessageSize: Int
    ) {
        self.upgrader = upgrader
        self.promise = promise
        self.requestEncoder = requestEncoder
        self.responseDecoder = responseDecoder
        self.maximumFrameSize = maximumFrameSize
        self.maximumMessageSize = maximumMessageSize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var chunk):
            let room = Self.bodyLimit - body.readableBytes
            if room > 0, let slice = chunk.readSlice(length: min(room, chunk.readableBytes)) {
                var slice = slice
                body.writeBuffer(&slice)
            }
        case .end:
            answer(context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !done else { return context.fireErrorCaught(error) }
        done = true
        promise.fail(CourierError(.invalidResponse, message: "The server's answer to the WebSocket handshake was not valid HTTP.", underlyingError: error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failUnanswered()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failUnanswered()
    }

    /// Fails the handshake, unless answered: the connection ended (or the pipeline was torn down) first.
    private func failUnanswered() {
        guard !done else { return }
        done = true
        promise.fail(CourierError(.notConnected, message: "The server closed the connection before answering the WebSocket handshake."))
    }

    private func answer(_ context: ChannelHandlerContext) {
        done = true
        guard let head else {
            promise.fail(CourierError(.invalidResponse, message: "The server's answer to the WebSocket handshake had no head."))
            context.close(promise: nil)
            return
        }
        let response = Self.response(head)
        guard head.status == .switchingProtocols else {
            promise.succeed(WebSocketHandshake(response: response, body: Data(body.readableBytesView)))
            context.close(promise: nil)
            return
        }
        guard upgrader.shouldAllowUpgrade(upgradeResponse: head) else {
            promise.fail(
                CourierError.webSocket(
                    .protocolViolation,
                    message: "The server answered 101 without a valid Upgrade, Connection or Sec-WebSocket-Accept field."
                )
            )
            context.close(promise: nil)
            return
        }
        let (events, continuation) = AsyncThrowingStream.makeStream(of: WebSocketTransportEvent.self)
        do {
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandlers(
                [
                    ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maximumFrameSize)),
                    WebSocketFrameEncoder(),
                    WebSocketFrameHandler(continuation: continuation, maximumMessageSize: maximumMessageSize),
                ],
                position: .after(responseDecoder)
            )
            pipeline.removeHandler(requestEncoder, promise: nil)
            // Any bytes after the 101 (the server's first frames) go on to the frame decoder.
            pipeline.removeHandler(responseDecoder, promise: nil)
            pipeline.removeHandler(context: context, promise: nil)
            promise.succeed(WebSocketHandshake(response: response, connection: NIOWebSocketConnection(channel: context.channel, events: events)))
        } catch {
            continuation.finish()
            promise.fail(CourierError(.transportFailed, message: "The WebSocket pipeline could not be set up.", underlyingError: error))
            context.close(promise: nil)
        }
    }

    /// Status and header fields as Courier reads them.
    static func response(_ head: HTTPResponseHead) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in head.headers {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: Int(head.status.code)), headerFields: fields)
    }
}
#endif
