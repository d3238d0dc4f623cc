import Courier
import CourierTesting
import Foundation
import Testing

@Suite("A scripted WebSocket stub plays the server of one socket")
struct StubWebSocketTests {
    struct Line: Codable, Equatable, Sendable {
        var text: String
    }

    /// A client whose `chat` endpoint opens `socket`.
    static func client(opening socket: StubWebSocket) -> Client {
        let transport = StubTransport()
        transport.answerWebSocket(RequestMatcher(.get, "chat"), with: socket)
        return Client(baseURL: "https://chat.example.com", transport: transport)
    }

    @Test("scripted messages arrive in order, typed ones decoded, and what the app sent is recorded")
    func messagesBothWays() async throws {
        let room = StubWebSocket()
        room.receive(.text("hello"))
        try room.receive(encoding: Line(text: "typed"))
        let socket = try await Self.client(opening: room).webSocket(Request<Void>(.get, "chat"))
        var incoming = socket.messages.makeAsyncIterator()
        let first: WebSocketMessage? = try await incoming.next()
        #expect(first == .text("hello"))
        let second: WebSocketMessage? = try await incoming.next()
        guard case .text(let typed)? = second else {
            Issue.record("the typed message did not arrive as text")
            return
        }
        let decoded: Line = try JSONDecoder().decode(Line.self, from: Data(typed.utf8))
        #expect(decoded == Line(text: "typed"))
        try await socket.send(.text("hi"))
        try await socket.send(encoding: Line(text: "typed back"))
        let sent: [WebSocketMessage] = try await room.waitForSent(count: 2)
        #expect(sent.first == .text("hi"))
        guard case .text(let typedBack) = sent[1] else {
            Issue.record("the Encodable was not sent as text")
            return
        }
        #expect(try JSONDecoder().decode(Line.self, from: Data(typedBack.utf8)) == Line(text: "typed back"))
        #expect(room.isOpened)
        #expect(room.handshake?.path == "/chat")
        await socket.close(.normalClosure, reason: "bye")
    }

    @Test("a scripted close ends the messages with the server's code and reason")
    func serverClose() async throws {
        let room = StubWebSocket()
        room.receive(.text("last"))
        room.close(WebSocketCloseCode(rawValue: 4000), reason: "room closed")
        let socket = try await Self.client(opening: room).webSocket(Request<Void>(.get, "chat"))
        var received: [WebSocketMessage] = []
        var failure: CourierError?
        do {
            for try await message in socket.messages { received.append(message) }
        } catch {
            failure = error
        }
        #expect(received == [.text("last")])
        let closedByServer: Bool = failure?.webSocket?.reason == .closedByServer
        #expect(closedByServer)
        #expect(failure?.webSocket?.closeCode == WebSocketCloseCode(rawValue: 4000))
        #expect(failure?.webSocket?.closeReason == "room closed")
    }

    @Test("a scripted drop ends the messages as a connection lost without a close")
    func drop() async throws {
        let room = StubWebSocket()
        room.drop()
        let socket = try await Self.client(opening: room).webSocket(Request<Void>(.get, "chat"))
        var failure: CourierError?
        do {
            for try await _ in socket.messages {}
        } catch {
            failure = error
        }
        #expect(failure?.kind == .webSocket)
        let code: WebSocketCloseCode? = failure?.webSocket?.closeCode
        #expect(code != .normalClosure)
    }

    @Test("a refused handshake fails to open with the status and the server's message")
    func refusedHandshake() async throws {
        let room = StubWebSocket.refusing(.forbidden, message: "Not a member")
        let result: Result<WebSocket, CourierError>
        do {
            result = .success(try await Self.client(opening: room).webSocket(Request<Void>(.get, "chat")))
        } catch {
            result = .failure(error)
        }
        guard case .failure(let error) = result else {
            Issue.record("the refused handshake opened a socket")
            return
        }
        let refused: Bool = error.webSocket?.reason == .handshakeRefused
        #expect(refused)
        #expect(error.status == .forbidden)
        #expect(error.message?.contains("Not a member") == true)
        // The handshake reached the stub, which refused it.
        #expect(room.handshake?.path == "/chat")
    }

    @Test("the app's close is recorded with its code and reason")
    func clientClose() async throws {
        let room = StubWebSocket()
        let socket = try await Self.client(opening: room).webSocket(Request<Void>(.get, "chat"))
        await socket.close(WebSocketCloseCode(rawValue: 4001), reason: "leaving")
        #expect(room.closedByClient?.code == WebSocketCloseCode(rawValue: 4001))
        #expect(room.closedByClient?.reason == "leaving")
    }
}
