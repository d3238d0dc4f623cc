import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw TCP server on 127.0.0.1 that answers every request with exactly the bytes a test scripts:
/// what no polite HTTP server sends (broken status lines, lying lengths, endless bodies, stray
/// bytes, resets). It reads the request head, then plays its ``Script``.
final class HostileServer: Sendable {
    /// What the server does once a request head has arrived.
    enum Script: Sendable {
        /// Writes these bytes, then closes the connection.
        case reply(String)
        /// Writes these bytes and keeps the connection open for the next request (which gets the
        /// next script in the list).
        case replyAndKeepOpen(String)
        /// Writes the head, then body chunks of `chunk` bytes until the client goes away.
        case endless(head: String, chunk: Int)
        /// Closes the connection at once, sending nothing.
        case close
        /// Resets the connection (an RST, not a FIN).
        case reset
    }

    let port: Int
    private let channel: any Channel
    private let counters: Counters

    /// Bytes written to clients so far, over every connection.
    var bytesWritten: Int { counters.bytesWritten.withLock { $0 } }
    /// Connections accepted so far.
    var connections: Int { counters.connections.withLock { $0 } }
    /// Connections the client closed (or that failed) while the server was still writing.
    var clientClosures: Int { counters.closures.withLock { $0 } }

    /// Starts the server; `scripts` are played in turn, the last one for every later request.
    static func start(_ scripts: [Script]) async throws -> HostileServer {
        let counters = Counters()
        let queue = ScriptQueue(scripts)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counters.connections.withLock { $0 += 1 }
                return channel.pipeline.addHandler(ScriptedConnection(queue: queue, counters: counters))
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return HostileServer(port: channel.localAddress?.port ?? 0, channel: channel, counters: counters)
    }

    /// One script for every request.
    static func start(_ script: Script) async throws -> HostileServer {
        try await start([script])
    }

    private init(port: Int, channel: any Channel, counters: Counters) {
        self.port = port
        self.channel = channel
        self.counters = counters
    }

    /// `http://127.0.0.1:PORT`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    func stop() async {
        try? await channel.close()
    }

    final class Counters: Sendable {
        let bytesWritten = NIOLockedValueBox(0)
        let connections = NIOLockedValueBox(0)
        let closures = NIOLockedValueBox(0)
    }

    final class ScriptQueue: Sendable {
        private let scripts: NIOLockedValueBox<[Script]>

        init(_ scripts: [Script]) {
            self.scripts = NIOLockedValueBox(scripts)
        }

        func next() -> Script {
            scripts.withLockedValue { scripts in
                scripts.count > 1 ? scripts.removeFirst() : scripts.first ?? .close
            }
        }
    }
}

/// Plays one script per request head on one connection.
private final class ScriptedConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let queue: HostileServer.ScriptQueue
    private let counters: HostileServer.Counters
    private var received = ""
    private var writingEndlessly = false

    init(queue: HostileServer.ScriptQueue, counters: HostileServer.Counters) {
        self.queue = queue
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readString(length: buffer.readableBytes) ?? ""
        while let end = received.range(of: "\r\n\r\n") {
            received.removeSubrange(..<end.upperBound)
            play(queue.next(), context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if writingEndlessly { counters.closures.withLock { $0 += 1 } }
        writingEndlessly = false
    }

    private func play(_ script: HostileServer.Script, context: ChannelHandlerContext) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        switch script {
        case .reply(let text):
            write(text, context: context).whenComplete { _ in bound.value.close(promise: nil) }
        case .replyAndKeepOpen(let text):
            _ = write(text, context: context)
        case .endless(let head, let chunk):
            writingEndlessly = true
            write(head, context: context).whenSuccess { [self] in writeForever(chunk: chunk, context: bound.value) }
        case .close:
            context.close(promise: nil)
        case .reset:
            // SO_LINGER 0: closing sends an RST instead of a FIN.
            let options = context.channel as? any SocketOptionProvider
            _ = options?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
            context.close(promise: nil)
        }
    }

    private func write(_ text: String, context: ChannelHandlerContext) -> EventLoopFuture<Void> {
        counters.bytesWritten.withLock { $0 += text.utf8.count }
        return context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)))
    }

    /// Writes chunks as fast as the connection takes them, until it is closed.
    private func writeForever(chunk: Int, context: ChannelHandlerContext) {
        guard writingEndlessly, context.channel.isActive else { return }
        let buffer = ByteBuffer(repeating: UInt8(ascii: " "), count: chunk)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { [self] result in
            switch result {
            case .success:
                counters.bytesWritten.withLock { $0 += chunk }
                writeForever(chunk: chunk, context: bound.value)
            case .failure:
                bound.value.close(promise: nil)
            }
        }
    }
}

extension NIOLockedValueBox {
    fileprivate func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        withLockedValue(body)
    }
}
