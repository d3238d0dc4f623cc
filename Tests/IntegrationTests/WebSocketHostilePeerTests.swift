#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore
import TestSupport
import Testing

@Suite("WebSockets against a raw peer: malformed frames, silence, backpressure", .timingSensitive)
struct WebSocketHostilePeerTests {
    /// Opens a socket to a raw peer that sends `bytes` after its 101, and returns how it ends and
    /// the close code the client answered with.
    func outcome(
        of bytes: [UInt8],
        configure: @escaping (inout WebSocketConfiguration) -> Void = { _ in }
    ) async throws -> (error: CourierError?, closeCode: UInt16?) {
        let peer = try await RawWebSocketPeer.start(sending: bytes)
        defer { Task { await peer.stop() } }
        let client = Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient())
        let socket = try await client.webSocket(Request<Void>(.get, "raw"), configure: configure)
        let (_, error) = await ending(of: socket)
        #expect(await eventually(within: hangBound) { peer.closeCodeReceived != nil })
        return (error, peer.closeCodeReceived)
    }

    @Test(
        "each malformed frame ends the socket with its own error and close code",
        arguments: [
            ("a masked frame", [0x81, 0x85, 1, 2, 3, 4, 0x69, 0x67, 0x6F, 0x68, 0x6E], WebSocketFailure.Reason.protocolViolation, UInt16(1002)),
            ("reserved bits", [0xC1, 0x02, 0x68, 0x69], .protocolViolation, 1002),
            ("a fragmented ping", [0x09, 0x00], .protocolViolation, 1002),
            ("a ping of 126 bytes", [0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126), .protocolViolation, 1002),
            ("a 2^63 length", [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], .messageTooLarge, 1009),
            ("a close with the invalid code 1004", [0x88, 0x02, 0x03, 0xEC], .protocolViolation, 1002),
            ("a close with the reserved code 1006", [0x88, 0x02, 0x03, 0xEE], .protocolViolation, 1002),
            ("a close of one byte", [0x88, 0x01, 0x03], .protocolViolation, 1002),
            ("invalid UTF-8 in a text message", [0x81, 0x02, 0xC3, 0x28], .protocolViolation, 1007),
            ("a continuation with no message", [0x80, 0x01, 0x61], .protocolViolation, 1002),
            ("a new message inside a fragmented one", [0x01, 0x01, 0x61, 0x81, 0x01, 0x62], .protocolViolation, 1002),
            ("an unknown opcode", [0x83, 0x00], .protocolViolation, 1002),
        ] as [(String, [UInt8], WebSocketFailure.Reason, UInt16)]
    )
    func malformedFrame(name: String, bytes: [UInt8], reason: WebSocketFailure.Reason, code: UInt16) async throws {
        let (error, closeCode) = try await outcome(of: bytes)
        #expect(error?.kind == CourierError.Kind.webSocket, "\(name)")
        #expect(error?.webSocket?.reason == reason, "\(name)")
        #expect(error?.webSocket?.closeCode?.rawValue == code, "\(name)")
        #expect(closeCode == code, "\(name): the client's close frame")
        #expect(error?.message?.isEmpty == false)
    }

    @Test("a frame over maximumFrameSize, and a message over maximumMessageSize in fragments, close with 1009")
    func sizeLimits() async throws {
        let frame = try await outcome(of: [0x82, 0x7E, 0x08, 0x00] + [UInt8](repeating: 1, count: 2048)) { $0.maximumFrameSize = 1024 }
        #expect(frame.error?.webSocket?.reason == WebSocketFailure.Reason.messageTooLarge)
        #expect(frame.closeCode == 1009)
        let fragments: [UInt8] = [0x02, 0x7E, 0x02, 0x00] + [UInt8](repeating: 1, count: 512) + [0x80, 0x7E, 0x02, 0x00] + [UInt8](repeating: 1, count: 512)
        let message = try await outcome(of: fragments) { $0.maximumMessageSize = 800 }
        #expect(message.error?.webSocket?.reason == WebSocketFailure.Reason.messageTooLarge)
        #expect(message.closeCode == 1009)
    }

    @Test("fragments, pings between them, and frames sent with the 101 arrive as whole messages; the ping is answered")
    func fragmentsAndPings() async throws {
        let bytes: [UInt8] = [0x01, 0x03] + Array("hel".utf8) + [0x89, 0x02, 0x70, 0x31] + [0x80, 0x02] + Array("lo".utf8) + [0x82, 0x01, 0x09]
        let peer = try await RawWebSocketPeer.start(sending: bytes)
        defer { Task { await peer.stop() } }
        let socket = try await Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient()).webSocket(Request<Void>(.get, "raw"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("hello"))
        #expect(try await iterator.next() == .binary(Data([0x09])))
        #expect(await eventually(within: hangBound) { peer.framesReceived.contains { $0.opcode == 0xA } })
        #expect(peer.framesReceived.first { $0.opcode == 0xA }?.payload == Array("p1".utf8))
        let head = try #require(peer.requestHeads.first)
        #expect(head.hasPrefix("GET /raw HTTP/1.1"))
        #expect(head.lowercased().contains("upgrade: websocket"))
        #expect(head.lowercased().contains("sec-websocket-version: 13"))
        await socket.close(WebSocketCloseCode(rawValue: 4000), reason: "bye")
        #expect(try await iterator.next() == nil)
        #expect(await eventually(within: hangBound) { peer.closeCodeReceived != nil })
        #expect(peer.closeCodeReceived == 4000)
        #expect(peer.framesReceived.first { $0.opcode == 0x8 }?.payload.dropFirst(2).elementsEqual(Array("bye".utf8)) == true)
    }

    @Test(
        "frames a server sends right after its 101, in writes of their own, all arrive",
        arguments: [TimeAmount.zero, .milliseconds(1), .milliseconds(5), .milliseconds(20)]
    )
    func framesRightAfterTheHandshake(delay: TimeAmount) async throws {
        // Two text messages, then a close 1000: what a ticker or a greeting sends at once.
        let bytes: [UInt8] = [0x81, 0x06] + Array("tick 1".utf8) + [0x81, 0x06] + Array("tick 2".utf8) + [0x88, 0x02, 0x03, 0xE8]
        let peer = try await RawWebSocketPeer.start(sending: bytes, after: delay)
        defer { Task { await peer.stop() } }
        let client = Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient())
        for _ in 0..<20 {
            let socket = try await client.webSocket(Request<Void>(.get, "raw"))
            let (messages, error) = await ending(of: socket)
            #expect(messages == [.text("tick 1"), .text("tick 2")])
            #expect(error?.webSocket?.closeCode == WebSocketCloseCode.normalClosure, "\(String(describing: error))")
        }
    }

    @Test("a 403 handshake is refused with its status and message and not retried; a 302 is refused too")
    func refusedHandshakes() async throws {
        let body = #"{"message":"You are not a member of this room"}"#
        let forbidden = try await HostileServer.start(
            .reply("HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        )
        defer { Task { await forbidden.stop() } }
        let client = Client(baseURL: BaseURL(forbidden.baseURL), transport: .asyncHTTPClient()) { $0.errorFormat = .message }
        let refused = await capture { try await client.webSocket(Request<Void>(.get, "live")) }
        let error = try #require(refused.error)
        #expect(error.kind == CourierError.Kind.webSocket)
        #expect(error.webSocket?.reason == WebSocketFailure.Reason.handshakeRefused)
        #expect(error.status?.code == 403)
        #expect(error.message == "You are not a member of this room")

        var policy = WebSocketReconnectPolicy()
        policy.initialDelay = .milliseconds(20)
        let live = client.liveWebSocket(Request<Void>(.get, "live"), reconnect: policy)
        var events: [WebSocketEvent] = []
        for await event in live.events { events.append(event) }
        #expect(events == [.connecting(attempt: 1), .closed(CourierError.Kind.webSocket)])
        #expect(forbidden.connections == 2)

        let redirect = try await HostileServer.start(.reply("HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n"))
        defer { Task { await redirect.stop() } }
        let moved = await capture {
            try await Client(baseURL: BaseURL(redirect.baseURL), transport: .asyncHTTPClient()).webSocket(Request<Void>(.get, "live"))
        }
        #expect(moved.error?.webSocket?.reason == WebSocketFailure.Reason.handshakeRefused)
        #expect(moved.error?.status?.code == 302)
        #expect(redirect.connections == 1)
    }

    @Test("a 401 handshake refreshes the token once and the second handshake, with the new token, opens the socket")
    func refreshOnUnauthorized() async throws {
        let body = #"{"message":"Token expired"}"#
        let peer = try await RawWebSocketPeer.start(
            refusingFirst: ["HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"]
        )
        defer { Task { await peer.stop() } }
        let refreshes = LockedBox(0)
        let session = AuthenticationSession { _ in
            refreshes.increment()
            return AuthTokens(accessToken: "renewed-token")
        }
        try session.signIn(AuthTokens(accessToken: "expired-token"))
        let client = Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient()) {
            $0.middleware = [AuthenticationMiddleware(session)]
        }
        let socket = try await client.webSocket(Request<Void>(.get, "live")) { $0.pingPolicy = .off }
        #expect(socket.response.status.code == 101)
        #expect(refreshes.value == 1)
        let heads = peer.requestHeads
        #expect(heads.count == 2)
        #expect(heads.first?.contains("Bearer expired-token") == true)
        #expect(heads.last?.contains("Bearer renewed-token") == true)
        await socket.close()
    }

    @Test("messages left unread past incomingBufferLimit close the socket with 1009; the reader gets those received first, then the reason")
    func slowReader() async throws {
        let frame: [UInt8] = [0x82, 0x7E, 0x0F, 0xA0] + [UInt8](repeating: 7, count: 4_000)
        let peer = try await RawWebSocketPeer.start(sending: Array([[UInt8]](repeating: frame, count: 4).joined()))
        defer { Task { await peer.stop() } }
        let socket = try await Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient()).webSocket(Request<Void>(.get, "raw")) {
            $0.incomingBufferLimit = 10_000
        }
        // The reader comes late: the four messages are all in before it reads.
        #expect(await eventually(within: hangBound) { peer.closeCodeReceived != nil })
        let (messages, error) = await ending(of: socket)
        #expect(messages == [.binary(Data(repeating: 7, count: 4_000)), .binary(Data(repeating: 7, count: 4_000))])
        #expect(error?.webSocket == WebSocketFailure(.readerTooSlow, closeCode: .messageTooLarge))
        #expect(peer.closeCodeReceived == 1009)
    }

    @Test("a large message goes out in frames of at most 256 KiB, the first with its opcode, then continuations, the payload whole and in order")
    func largeMessageInFragments() async throws {
        let peer = try await RawWebSocketPeer.start()
        defer { Task { await peer.stop() } }
        let client = Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient())
        let socket = try await client.webSocket(Request<Void>(.get, "raw"))
        let payload = Data((0..<(600 * 1024)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try await socket.send(.binary(payload))
        #expect(await eventually(within: hangBound) { peer.framesReceived.reduce(0) { $0 + $1.payload.count } >= payload.count })
        let frames = peer.framesReceived
        #expect(frames.map(\.opcode) == [0x2, 0x0, 0x0])
        #expect(frames.allSatisfy { $0.payload.count <= 256 * 1024 })
        #expect(Data(frames.flatMap(\.payload)) == payload)
    }

    @Test("a peer that never answers pings is detected within the interval plus the timeout")
    func pingTimeout() async throws {
        let peer = try await RawWebSocketPeer.start()
        defer { Task { await peer.stop() } }
        let client = Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient())
        let socket = try await client.webSocket(Request<Void>(.get, "raw")) {
            $0.pingPolicy = .every(.milliseconds(300), timeout: .milliseconds(500))
        }
        let ((_, error), elapsed) = await measure { await ending(of: socket) }
        #expect(error?.webSocket?.reason == WebSocketFailure.Reason.pingTimeout)
        #expect(elapsed >= .milliseconds(800))
        // Interval plus timeout, with room for a busy machine.
        #expect(elapsed < .milliseconds(800) + hangBound)
        // The ping was written before the timeout; the peer reads it in its own time.
        #expect(await eventually(within: hangBound) { peer.framesReceived.contains { $0.opcode == 0x9 } })
    }

    @Test("cancelling the task that reads the messages closes the socket with 1001")
    func cancellationClosesWithGoingAway() async throws {
        let peer = try await RawWebSocketPeer.start()
        defer { Task { await peer.stop() } }
        let socket = try await Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient()).webSocket(Request<Void>(.get, "raw")) {
            $0.pingPolicy = .off
        }
        let reader = Task { await ending(of: socket) }
        try await Task.sleep(for: .milliseconds(100))
        reader.cancel()
        let (messages, error) = await reader.value
        #expect(messages.isEmpty)
        #expect(error == nil)
        #expect(await eventually(within: hangBound) { peer.closeCodeReceived != nil })
        #expect(peer.closeCodeReceived == 1001)
    }

    @Test("sends wait while the peer does not read, and every byte arrives once it does")
    func backpressureBlocksAndNeverDrops() async throws {
        let peer = try await RawWebSocketPeer.start()
        defer { Task { await peer.stop() } }
        let socket = try await Client(baseURL: BaseURL(peer.baseURL), transport: .asyncHTTPClient()).webSocket(Request<Void>(.get, "raw")) {
            $0.pingPolicy = .off
            $0.outgoingBufferLimit = 256 * 1024
        }
        #expect(await eventually(within: hangBound) { !peer.requestHeads.isEmpty })
        try await peer.setReading(false)
        let chunk = Data(repeating: 0x5A, count: 256 * 1024)
        let total = 96
        let sent = LockedBox(0)
        let sender = Task {
            for _ in 0..<total {
                try await socket.send(.binary(chunk))
                sent.increment()
            }
        }
        // The sends stall: the kernel's buffers fill and the outbox waits for room.
        var stalled = false
        var previous = -1
        for _ in 0..<200 where !stalled {
            try await Task.sleep(for: .milliseconds(100))
            let now = sent.value
            stalled = now == previous && now < total
            previous = now
        }
        #expect(stalled, "sends waited while the peer read nothing")
        try await peer.setReading(true)
        try await sender.value
        #expect(sent.value == total)
        #expect(await eventually(within: hangBound) { peer.bytesReceived >= total * (chunk.count + 14) })
        #expect(peer.bytesReceived == total * (chunk.count + 14))
        #expect(peer.framesReceived.filter { $0.opcode == 0x2 }.allSatisfy { $0.payload.count == chunk.count && $0.payload.first == 0x5A })
        await socket.close()
    }
}
#endif
