// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import NIOCore

/// Reads and drops everything the peer sends, first in the pipeline: a socket that failed
/// stops decoding but goes on reading until the server's end of stream, so that its close frame
/// reaches the server instead of being lost to a reset (a socket closed with unread bytes resets
/// the connection).
final class InputDiscardingHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func channelReadComplete(context: ChannelHandlerContext) {}
}
#endif
