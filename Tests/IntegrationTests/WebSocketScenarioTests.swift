#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import ExampleAPIs
import Foundation
import HTTPTypes
import Logging
import ReferenceServer
import TestSupport
import Testing

struct ChatLine: Codable, Sendable, Equatable {
    var room: String
    var text: String
}

/// A client of the reference server's WebSocket listener.
func webSocketClient(_ server: ReferenceServer, configure: (inout Configuration) -> Void = { _ in }) -> Client {
    Client(baseURL: BaseURL(server.webSocketBaseURL), transport: .asyncHTTPClient()) {
        $0.errorFormat = .message
        configure(&$0)
    }
}

/// The error that ends a socket's messages, or `nil` when they end normally.
func ending(of socket: WebSocket) async -> (messages: [WebSocketMessage], error: CourierError?) {
    var messages: [WebSocketMessage] = []
    do {
        for try await message in socket.messages { messages.append(message) }
        return (messages, nil)
    } catch {
        return (messages, CourierError(error))
    }
}

@Suite("WebSockets on the AsyncHTTPClient transport against the reference server", .timingSensitive)
struct WebSocketScenarioTests {
    let demo = ReferenceServer.demoCredentials

    @Test("text, binary and typed messages come back from the echo route, in order")
    func echo() async throws {
        let server = try await ReferenceServer.start()
        defer { Task { await server.stop() } }
        let client = webSocketClient(server)
        let socket = try await client.webSocket(Request<Void>(.get, "ws/echo"))
        #expect(socket.response.status == HTTPResponse.Status.switchingProtocols)
        try await socket.send(.text("héllo 👋"))
        try await socket.send(.binary(Data([0, 1, 2, 255])))
        try await socket.send(encoding: ChatLine(room: "lobby", text: "hi"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("héllo 👋"))
        #expect(try await iterator.next() == .binary(Data([0, 1, 2, 255])))
        try await socket.send(encoding: ChatLine(room: "lobby", text: "typed"))
        var typed = socket.messages(as: ChatLine.self).makeAsyncIterator()
        #expect(try await typed.next() == ChatLine(room: "lobby", text: "hi"))
        #expect(try await typed.next() == ChatLine(room: "lobby", text: "typed"))
        await socket.close(.normalClosure, reason: "done")
        #expect(try await iterator.next() == nil)
        let afterClose = await capture { try await socket.send(.text("late")) }
        #expect(afterClose.error?.webSocket?.reason == WebSocketFailure.Reason.notConnected)
    }

    @Test("cancelAll() closes every open socket of the client; their messages end")
    func cancelAllClosesSockets() async throws {
        let server = try await ReferenceServer.start()
        defer { Task { await server.stop() } }
        let client = webSocketClient(server)
        let first = try await client.webSocket(Request<Void>(.get, "ws/echo"))
        let second = try await client.webSocket(Request<Void>(.get, "ws/echo"))
        try await first.send(.text("one"))
        var firstMessages = first.messages.makeAsyncIterator()
        #expect(try await firstMessages.next() == .text("one"))
        client.cancelAll()
        let (_, firstError) = await ending(of: first)
        let (_, secondError) = await ending(of: second)
        #expect(firstError == nil)
        #expect(secondError == nil)
        let send = await capture { try await second.send(.text("after cancelAll")) }
        #expect(send.error?.webSocket?.reason == WebSocketFailure.Reason.notConnected)
        #expect(send.error?.webSocket?.closeCode == WebSocketCloseCode.goingAway)
    }

    @Test("a message over maximumMessageSize closes the socket with 1009")
    func oversizeMessage() async throws {
        let server = try await ReferenceServer.start()
        defer { Task { await server.stop() } }
        let socket = try await webSocketClient(server).webSocket(Request<Void>(.get, "ws/oversize", query: ["bytes": 300_000])) {
            $0.maximumFrameSize = 1 << 20
            $0.maximumMessageSize = 64 * 1024
        }
        let (messages, error) = await ending(of: socket)
        #expect(messages.isEmpty)
        #expect(error?.webSocket == WebSocketFailure(.messageTooLarge, closeCode: .messageTooLarge))
    }

    @Test("the handshake's log lines and a refusal's description show no token and no query secret")
    func handshakeLogsRedacted() async throws {
        let server = try await ReferenceServer.start()
        defer { Task { await server.stop() } }
        let lines = LockedBox<[String]>([])
        var logger = Logger(label: "courier.tests") { _ in LogCapture(lines: lines, logLevel: .debug) }
        logger.logLevel = .trace
        let auth = AuthService(client: webSocketClient(server) { $0.decoder.keyDecodingStrategy = .convertFromSnakeCase })
        let login = try await auth.authenticate(email: demo.email, password: demo.password)
        let client = webSocketClient(server) {
            $0.middleware = [AuthenticationMiddleware(auth.session, scheme: .jwt), LoggingMiddleware(logger: logger)]
        }
        let socket = try await client.webSocket(Request<Void>(.get, "ws/private", query: ["access_token": "query-secret-5678"]))
        await socket.close()
        let refused = await capture {
            try await client.webSocket(Request<Void>(.get, "ws/forbidden", query: ["access_token": "query-secret-5678"]))
        }
        let error = try #require(refused.error)
        let log = lines.all.joined(separator: "\n")
        #expect(log.contains("ws/private"))
        #expect(log.contains("101"))
        for text in [log, error.description, error.localizedDescription, error.failureReason ?? ""] {
            #expect(!text.contains(login.token))
            #expect(!text.contains("query-secret-5678"))
        }
    }

    @Test("a server that drops the connection after its messages: every message, then closedByServer 1006")
    func serverDrop() async throws {
        let server = try await ReferenceServer.start()
        defer { Task { await server.stop() } }
        let socket = try await webSocketClient(server).webSocket(Request<Void>(.get, "ws/ticker", query: ["count": 3]))
        try await socket.send(.text("start"))
        let (messages, error) = await ending(of: socket)
        #expect(messages == [.text("tick 1"), .text("tick 2"), .text("tick 3")])
        #expect(error?.webSocket?.reason == WebSocketFailure.Reason.closedByServer, "\(String(describing: error))")
        #expect(error?.webSocket?.closeCode == WebSocketCloseCode.abnormalClosure)
    }

    @Test("a close from the server ends the messages with closedByServer, its code and its reason")
    func serverClose() async throws {
        let server = try await ReferenceServer.start()
        defer { Task { await server.stop() } }
        let client = webSocketClient(server)
        let normal = try await client.webSocket(Request<Void>(.get, "ws/close", query: ["code": 1000]))
        try await normal.send(.text("close, please"))
        let (_, normalEnd) = await ending(of: normal)
        #expect(normalEnd?.webSocket?.reason == WebSocketFailure.Reason.closedByServer, "\(String(describing: normalEnd))")
        #expect(normalEnd?.webSocket?.closeCode == WebSocketCloseCode.normalClosure)
        let away = try await client.webSocket(Request<Void>(.get, "ws/close", query: ["code": 4001, "reason": "room closed"]))
        try await away.send(.text("close, please"))
        let (_, error) = await ending(of: away)
        #expect(error?.webSocket?.reason == WebSocketFailure.Reason.closedByServer, "\(String(describing: error))")
        #expect(error?.webSocket?.closeCode == WebSocketCloseCode(rawValue: 4001))
        #expect(error?.webSocket?.closeReason == "room closed")
    }
}
#endif
