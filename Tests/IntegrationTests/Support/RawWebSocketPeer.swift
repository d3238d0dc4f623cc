import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A raw TCP WebSocket server on 127.0.0.1 for what no polite server sends: it answers the
/// handshake with a valid 101, writes exactly the bytes a test scripts (in the same packet as the
/// 101, or in a write of their own a moment later), and then only listens: it never answers a
/// ping, and keeps every byte the client sends.
final class RawWebSocketPeer: Sendable {
    let port: Int
    private let channel: any Channel
    private let state: State

    final class State: Sendable {
        let received = NIOLockedValueBox<[UInt8]>([])
        let requestHeads = NIOLockedValueBox<[String]>([])
        let connections = NIOLockedValueBox<[any Channel]>([])
        /// HTTP answers (instead of a 101) for the first handshakes, one each.
        let refusals = NIOLockedValueBox<[String]>([])
    }

    /// Starts the peer; every connection gets `bytes` after its 101: with it, or `delay` later in
    /// a write of their own when a delay is given.
    static func start(
        sending bytes: [UInt8] = [],
        after delay: TimeAmount? = nil,
        refusingFirst refusals: [String] = []
    ) async throws -> RawWebSocketPeer {
        let state = State()
        state.refusals.withLockedValue { $0 = refusals }
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                state.connections.withLockedValue { $0.append(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Connection(script: bytes, delay: delay, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return RawWebSocketPeer(port: channel.localAddress?.port ?? 0, channel: channel, state: state)
    }

    private init(port: Int, channel: any Channel, state: State) {
        self.port = port
        self.channel = channel
        self.state = state
    }

    /// `http://127.0.0.1:PORT`: the client's base URL (the socket is `ws://`).
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The handshake requests received, as text.
    var requestHeads: [String] { state.requestHeads.withLockedValue { $0 } }

    /// How many bytes the client sent after the handshake.
    var bytesReceived: Int { state.received.withLockedValue { $0.count } }

    /// The frames the client sent after the handshake, unmasked: (opcode, payload).
    var framesReceived: [(opcode: UInt8, payload: [UInt8])] {
        Self.frames(in: state.received.withLockedValue { $0 })
    }

    /// The code of the first close frame the client sent, if any.
    var closeCodeReceived: UInt16? {
        guard let close = framesReceived.first(where: { $0.opcode == 0x8 }), close.payload.count >= 2 else { return nil }
        return UInt16(close.payload[0]) << 8 | UInt16(close.payload[1])
    }

    /// Stops reading from every connection (autoRead off), so the client's writes back up; or resumes.
    func setReading(_ reading: Bool) async throws {
        for connection in state.connections.withLockedValue({ $0 }) {
            try await connection.setOption(ChannelOptions.autoRead, value: reading).get()
            if reading { connection.read() }
        }
    }

    func stop() async {
        for connection in state.connections.withLockedValue({ $0 }) { try? await connection.close() }
        try? await channel.close()
    }

    /// Client frames: each masked, with 7-, 16- or 64-bit lengths.
    private static func frames(in bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        var frames: [(opcode: UInt8, payload: [UInt8])] = []
        var index = 0
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            let masked = bytes[index + 1] & 0x80 != 0
            var length = Int(bytes[index + 1] & 0x7F)
            index += 2
            if length == 126 {
                guard index + 2 <= bytes.count else { break }
                length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
            } else if length == 127 {
                guard index + 8 <= bytes.count else { break }
                length = bytes[index..<index + 8].reduce(0) { $0 << 8 | Int($1) }
                index += 8
            }
            var mask: [UInt8] = [0, 0, 0, 0]
            if masked {
                guard index + 4 <= bytes.count else { break }
                mask = Array(bytes[index..<index + 4])
                index += 4
            }
            guard index + length <= bytes.count else { break }
            let payload = bytes[index..<index + length].enumerated().map { $0.element ^ mask[$0.offset % 4] }
            frames.append((opcode, payload))
            index += length
        }
        return frames
    }

    /// One connection: the handshake, the script, then every byte kept.
    private final class Connection: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let script: [UInt8]
        let delay: TimeAmount?
        let state: State
        var head: [UInt8] = []
        var upgraded = false

        init(script: [UInt8], delay: TimeAmount?, state: State) {
            self.script = script
            self.delay = delay
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            if upgraded {
                state.received.withLockedValue { $0.append(contentsOf: bytes) }
                return
            }
            head.append(contentsOf: bytes)
            guard let end = head.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let text = String(decoding: head[..<end.lowerBound], as: UTF8.self)
            state.requestHeads.withLockedValue { $0.append(text) }
            let rest = Array(head[end.upperBound...])
            let refusal = state.refusals.withLockedValue { $0.isEmpty ? nil : $0.removeFirst() }
            if let refusal {
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: refusal))).whenComplete { [channel = context.channel] _ in
                    channel.close(promise: nil)
                }
                return
            }
            upgraded = true
            state.received.withLockedValue { $0.append(contentsOf: rest) }
            let key =
                text.split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
            let digest = Insecure.SHA1.hash(data: Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
            let accept = Data(digest).base64EncodedString()
            var reply = context.channel.allocator.buffer(
                string: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
            )
            guard let delay else {
                reply.writeBytes(script)
                context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
                return
            }
            context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
            let later = context.channel.allocator.buffer(bytes: script)
            context.eventLoop.scheduleTask(in: delay) { [channel = context.channel] in
                channel.writeAndFlush(later, promise: nil)
            }
        }
    }
}
