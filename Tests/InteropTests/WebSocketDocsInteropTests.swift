// WebSockets are the AsyncHTTPClient transport's: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

/// The promises of the DocC article "WebSockets" (and the README's section), each checked against
/// Python's `websockets` through the AsyncHTTPClient transport over `ws` and `wss`, directly and
/// through squid and dante; and the URLSession transport's documented answer on this machine.
@Suite("WebSockets as their documentation promises, against Python's websockets", .requires(.pythonServers))
struct WebSocketDocsInteropTests {
    enum Scheme: String, CaseIterable, Sendable, CustomStringConvertible {
        case ws, wss
        var description: String { rawValue }
    }

    struct ChatLine: Codable, Sendable, Equatable {
        let author: String
        let text: String
    }

    /// A handshake the server refuses, and the status the app must see.
    struct Refusal: Sendable, CustomStringConvertible {
        let path: String
        let query: [String: String]
        let status: Int
        var description: String { "\(status) from /\(path)" }
    }

    /// Runs `body` with a client on the AsyncHTTPClient transport for `scheme`'s listener (the
    /// test CA trusted for `wss`), through `proxy` if given, and shuts the transport down after.
    private static func withClient<T>(
        _ python: PythonWebSocketServer,
        _ scheme: Scheme,
        proxy: Proxy? = nil,
        _ body: (Client) async throws -> T
    ) async throws -> T {
        let roots = scheme == .wss ? [python.certificates.rootCertificatePEM] : []
        let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: roots), proxy: proxy)
        let client = Client(baseURL: BaseURL(scheme == .wss ? python.secureBaseURL : python.baseURL), transport: transport)
        return try await withShutdown(transport) { try await body(client) }
    }

    /// Every message until the sequence ends, and the error it ended with, if any.
    private static func drain(_ socket: WebSocket) async -> (messages: [WebSocketMessage], error: CourierError?) {
        var iterator = socket.messages.makeAsyncIterator()
        var messages: [WebSocketMessage] = []
        do {
            while let message = try await iterator.next() { messages.append(message) }
            return (messages, nil)
        } catch {
            return (messages, error)
        }
    }

    // MARK: Messages

    @Test("send(encoding:) and messages(as:) carry JSON text; text and binary come back as sent", arguments: Scheme.allCases)
    func typedTextAndBinaryEcho(scheme: Scheme) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, scheme) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                #expect(socket.response.status == .switchingProtocols)
                try await socket.send(encoding: ChatLine(author: "ada", text: "hello"))
                var lines = socket.messages(as: ChatLine.self).makeAsyncIterator()
                #expect(try await lines.next() == ChatLine(author: "ada", text: "hello"))

                try await socket.send(.text("plain text, ünïcödé ✓"))
                try await socket.send(.binary(Data([0, 1, 0x7F, 0x80, 0xFF])))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("plain text, ünïcödé ✓"))
                #expect(try await messages.next() == .binary(Data([0, 1, 0x7F, 0x80, 0xFF])))
                await socket.close()
                #expect(try await messages.next() == nil)

                let closed = try await python.event { $0.path == "/echo" && $0.event == "closed" }
                let received = python.events.filter { $0.connection == closed.connection && $0.event == "message" }
                #expect(received.map(\.type) == ["text", "text", "binary"])
                let json = try #require(received.first?.text)
                #expect(try JSONDecoder().decode(ChatLine.self, from: Data(json.utf8)) == ChatLine(author: "ada", text: "hello"))
                #expect(closed.received?.code == 1000)
            }
        }
    }

    @Test("a message that does not decode ends messages(as:) with decodingFailed and leaves the socket open")
    func undecodableMessage() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                try await socket.send(.text("not a chat line"))
                var lines = socket.messages(as: ChatLine.self).makeAsyncIterator()
                let error = await #expect(throws: CourierError.self) { try await lines.next() }
                #expect(error?.kind == .decodingFailed)

                try await socket.send(.text("still open"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("still open"))
                await socket.close()
            }
        }
    }

    // MARK: Endings

    @Test("close(_:reason:) sends its code and reason; messages then end without an error, and a later send is notConnected", arguments: Scheme.allCases)
    func closeFromTheClient(scheme: Scheme) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, scheme) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                try await socket.send(.text("one"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("one"))
                try await socket.send(.text("two"))
                try await socket.send(.text("three"))
                await socket.close(WebSocketCloseCode(rawValue: 4000), reason: "done here")

                let rest = await Self.drain(socket)
                #expect(rest.error == nil)
                // What had arrived before the close can still be read, in order.
                #expect([WebSocketMessage.text("two"), .text("three")].starts(with: rest.messages))

                let closed = try await python.event { $0.path == "/echo" && $0.event == "closed" }
                #expect(closed.received?.code == 4000)
                #expect(closed.received?.reason == "done here")
                let error = await #expect(throws: CourierError.self) { try await socket.send(.text("late")) }
                #expect(error?.kind == .webSocket)
                #expect(error?.webSocket?.reason == .notConnected)
            }
        }
    }

    @Test("a close from the server, 1000 included, ends messages with closedByServer, its code and reason; the client echoes the code", arguments: Scheme.allCases, [1000, 4001])
    func closeFromTheServer(scheme: Scheme, code: Int) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, scheme) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "close", query: ["code": code, "reason": "server says bye"]))
                let ending = await Self.drain(socket)
                #expect(ending.messages.isEmpty)
                let error = try #require(ending.error)
                #expect(error.kind == .webSocket)
                #expect(error.webSocket?.reason == .closedByServer)
                #expect(error.webSocket?.closeCode?.rawValue == UInt16(code))
                #expect(error.webSocket?.closeReason == "server says bye")

                let closed = try await python.event { $0.path.hasPrefix("/close") && $0.event == "closed" }
                #expect(closed.sent?.code == code)
                #expect(closed.received?.code == code)
            }
        }
    }

    @Test("a send after the server closed the socket throws notConnected: the message was not sent")
    func sendAfterServerClose() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "close", query: ["code": 4001, "reason": "server says bye"]))
                let ending = await Self.drain(socket)
                #expect(ending.error?.webSocket?.reason == .closedByServer)
                let late = await #expect(throws: CourierError.self) { try await socket.send(.text("late")) }
                #expect(late?.kind == .webSocket)
                #expect(late?.webSocket?.reason == .notConnected)
                #expect((late?.underlyingError as? CourierError)?.webSocket?.reason == .closedByServer)
            }
        }
    }

    @Test("a connection dropped without a close frame reports closedByServer with 1006", arguments: Scheme.allCases)
    func serverDrop(scheme: Scheme) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, scheme) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "drop", query: ["after": 1]))
                try await socket.send(.text("last words"))
                let ending = await Self.drain(socket)
                let error = try #require(ending.error)
                #expect(error.kind == .webSocket)
                #expect(error.webSocket?.reason == .closedByServer)
                #expect(error.webSocket?.closeCode == .abnormalClosure)
                _ = try await python.event { $0.path.hasPrefix("/drop") && $0.event == "drop" }
            }
        }
    }

    @Test("cancelling the task that reads the messages ends the sequence without an error and closes with 1001")
    func cancellingTheReader() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "speak-first"))
                let received = LockedBox<[WebSocketMessage]>([])
                let reader = Task {
                    var messages = socket.messages.makeAsyncIterator()
                    while let message = try await messages.next() { received.append(message) }
                }
                #expect(await eventually { received.all.count == 1 })
                reader.cancel()
                try await withinBound(.seconds(10), "the cancelled reader") { try await reader.value }
                #expect(received.all == [.text("hello from the server")])
                let closed = try await python.event { $0.path == "/speak-first" && $0.event == "closed" }
                #expect(closed.received?.code == 1001)
            }
        }
    }

    @Test("cancelAll() closes every socket of the client with 1001 and ends their readers")
    func cancelAllClosesEverySocket() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                let first = try await client.webSocket(Request<Void>(.get, "echo"))
                let second = try await client.webSocket(Request<Void>(.get, "speak-first"))
                let readers = [first, second].map { socket in Task { await Self.drain(socket) } }
                client.cancelAll()
                for reader in readers {
                    let ending = try await withinBound(.seconds(10), "a reader after cancelAll()") { await reader.value }
                    // Ended by the app: the sequence ends without an error.
                    #expect(ending.error == nil, "\(String(describing: ending.error))")
                }
                let echo = try await python.event { $0.path == "/echo" && $0.event == "closed" }
                let speaker = try await python.event { $0.path == "/speak-first" && $0.event == "closed" }
                #expect(echo.received?.code == 1001)
                #expect(speaker.received?.code == 1001)
            }
        }
    }

    @Test("a send in a cancelled task throws cancelled, and the socket stays usable")
    func cancelledSend() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                let sender = Task { () async -> CourierError? in
                    withUnsafeCurrentTask { $0?.cancel() }
                    do throws(CourierError) {
                        try await socket.send(.text("from a cancelled task"))
                        return nil
                    } catch {
                        return error
                    }
                }
                #expect(await sender.value?.kind == .cancelled)

                try await socket.send(.text("after the cancellation"))
                var messages = socket.messages.makeAsyncIterator()
                var received: [WebSocketMessage] = []
                while let message = try await messages.next() {
                    received.append(message)
                    if message == .text("after the cancellation") { break }
                }
                // The cancelled message may have been handed to the connection already; nothing else may come.
                #expect(received == [.text("after the cancellation")] || received == [.text("from a cancelled task"), .text("after the cancellation")])
                await socket.close()
            }
        }
    }

    @Test("a send waiting for its write to a server that stopped reading returns cancelled when its task is cancelled")
    func cancelledWaitingSend() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "stop-reading")) { socket in
                    socket.outgoingBufferLimit = 64 << 20
                }
                _ = try await python.event { $0.path == "/stop-reading" && $0.event == "stopped-reading" }
                // Far more than the kernel's socket buffers hold: the write cannot finish.
                let sender = Task { () async -> CourierError? in
                    do throws(CourierError) {
                        try await socket.send(.binary(Data(count: 32 << 20)))
                        return nil
                    } catch {
                        return error
                    }
                }
                sender.cancel()
                let error = try await withinBound(.seconds(10), "the cancelled send") { await sender.value }
                #expect(error?.kind == .cancelled)
                await socket.close(.goingAway)
            }
        }
    }

    // MARK: Pings

    @Test("the server's pongs keep a socket with a ping policy open", arguments: Scheme.allCases)
    func pingsAnswered(scheme: Scheme) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, scheme) { client in
                let socket = try await client.webSocket(Request<Void>(.get, "echo")) { socket in
                    // Unanswered, the first ping would end the socket: three pings prove the pongs arrived.
                    socket.pingPolicy = .every(.milliseconds(100), timeout: .seconds(10))
                }
                #expect(await eventually { python.events.filter { $0.path == "/echo" && $0.event == "ping" }.count >= 3 })
                try await socket.send(.text("still here"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("still here"))
                await socket.close()
            }
        }
    }

    @Test("a server that never answers pings ends the socket with pingTimeout", arguments: Scheme.allCases)
    func pingTimeout(scheme: Scheme) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, scheme) { client in
                let policy = WebSocketPingPolicy.every(.milliseconds(200), timeout: .milliseconds(500), missedPongs: 2)
                let socket = try await client.webSocket(Request<Void>(.get, "silent")) { $0.pingPolicy = policy }
                let bound = (policy.detectionBound ?? .zero) + .seconds(20)
                let ending = try await withinBound(bound, "the ping timeout") { await Self.drain(socket) }
                let error = try #require(ending.error)
                #expect(error.kind == .webSocket)
                #expect(error.webSocket?.reason == .pingTimeout)

                _ = try await python.event { $0.path == "/silent" && $0.event == "closed" }
                #expect(python.events.filter { $0.path == "/silent" && $0.event == "ping" }.count >= 2)
            }
        }
    }

    @Test("a ping timeout writes a close with 1001 and the reason \"ping timeout\", as the table says")
    func pingTimeoutWritesAClose() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                let policy = WebSocketPingPolicy.every(.milliseconds(200), timeout: .milliseconds(500), missedPongs: 2)
                let socket = try await client.webSocket(Request<Void>(.get, "silent")) { $0.pingPolicy = policy }
                let ending = try await withinBound((policy.detectionBound ?? .zero) + .seconds(20), "the ping timeout") { await Self.drain(socket) }
                #expect(ending.error?.webSocket?.reason == .pingTimeout)
                let closed = try await python.event { $0.path == "/silent" && $0.event == "closed" }
                #expect(closed.received?.code == 1001)
                #expect(closed.received?.reason == "ping timeout")
            }
        }
    }

    // MARK: Handshakes

    @Test(
        "a refused handshake (3xx included) is webSocket/handshakeRefused with its status; a redirect is not followed",
        arguments: [
            Refusal(path: "refuse", query: ["status": "302", "location": "/echo"], status: 302),
            Refusal(path: "refuse", query: ["status": "403"], status: 403),
            Refusal(path: "no-such-route", query: [:], status: 404),
            Refusal(path: "refuse", query: ["status": "503"], status: 503),
        ]
    )
    func refusedHandshake(refusal: Refusal) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                let query = QueryParameters(refusal.query.sorted { $0.key < $1.key }.map { (name: $0.key, value: .text($0.value)) })
                let error = await #expect(throws: CourierError.self) {
                    try await client.webSocket(Request<Void>(.get, Path(segments: [refusal.path]), query: query))
                }
                #expect(error?.kind == .webSocket)
                #expect(error?.webSocket?.reason == .handshakeRefused)
                #expect(error?.status?.code == refusal.status)
                if let location = refusal.query["location"] {
                    #expect(error?.responseHeaderFields?[.location] == location)
                }
                _ = try await python.event { $0.event == "handshake" }
                #expect(python.events.filter { $0.event == "handshake" }.count == 1)
            }
        }
    }

    @Test("a 401 handshake reaches the app with its status, header fields and the server's message", arguments: Scheme.allCases)
    func unauthorizedHandshake(scheme: Scheme) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, scheme) { client in
                let error = await #expect(throws: CourierError.self) {
                    try await client.webSocket(Request<Void>(.get, "unauthorized"))
                }
                #expect(error?.kind == .webSocket)
                #expect(error?.webSocket?.reason == .handshakeRefused)
                #expect(error?.status == .unauthorized)
                #expect(error?.message?.contains("This socket needs a token.") == true, "\(String(describing: error?.message))")
                #expect(error?.responseHeaderFields?[.wwwAuthenticate] == #"Bearer realm="interop""#)
            }
        }
    }

    // MARK: Staying connected

    @Test("liveWebSocket opens again after a drop, runs onOpen again, and its messages run across the reconnect")
    func liveReconnects() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                var policy = WebSocketReconnectPolicy()
                policy.initialDelay = .milliseconds(50)
                let opens = LockedBox(0)
                let live = client.liveWebSocket(Request<Void>(.get, "drop-once", query: ["key": UUID().uuidString, "after": 1]), reconnect: policy) { socket in
                    opens.increment()
                    try await socket.send(.text("subscribe"))
                }
                let events = LockedBox<[WebSocketEvent]>([])
                let watcher = Task { for await event in live.events { events.append(event) } }

                // The first socket's subscription is dropped unanswered; the second's is echoed.
                var messages = live.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("subscribe"))
                try await live.send(.text("after the reconnect"))
                #expect(try await messages.next() == .text("after the reconnect"))
                #expect(opens.value == 2)
                let handshakes = python.events.filter { $0.path.hasPrefix("/drop-once") && $0.event == "handshake" }
                #expect(handshakes.count == 2)
                for handshake in handshakes {
                    let first = python.events.first { $0.connection == handshake.connection && $0.event == "message" }
                    #expect(first?.text == "subscribe")
                }

                await live.close()
                #expect(try await messages.next() == nil)
                #expect(await eventually { events.all.last == .closed(nil) })
                watcher.cancel()
                let seen = events.all
                #expect(seen.first == .connecting(attempt: 1))
                let kinds = seen.map { event -> String in
                    switch event {
                    case .connecting: "connecting"
                    case .open: "open"
                    case .reconnecting: "reconnecting"
                    case .closed: "closed"
                    }
                }
                #expect(kinds == ["connecting", "open", "reconnecting", "connecting", "open", "closed"], "\(seen)")
                let reconnecting = seen.first { if case .reconnecting = $0 { true } else { false } }
                if case .reconnecting(let attempt, _) = reconnecting { #expect(attempt == 1) }
            }
        }
    }

    @Test("liveWebSocket does not open again after a server's normal close or a 4xx handshake", arguments: ["close", "unauthorized"])
    func liveDoesNotReconnect(path: String) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await Self.withClient(python, .ws) { client in
                var policy = WebSocketReconnectPolicy()
                policy.initialDelay = .milliseconds(50)
                let query: QueryParameters = path == "close" ? ["code": 1000] : [:]
                let live = client.liveWebSocket(Request<Void>(.get, Path(segments: [path]), query: query), reconnect: policy)
                let events = LockedBox<[WebSocketEvent]>([])
                let watcher = Task { for await event in live.events { events.append(event) } }
                var messages = live.messages.makeAsyncIterator()
                let error = await #expect(throws: CourierError.self) { try await messages.next() }
                #expect(error?.kind == .webSocket)
                #expect(error?.webSocket?.reason == (path == "close" ? .closedByServer : .handshakeRefused))
                #expect(await eventually { events.all.last == .closed(.webSocket) })
                watcher.cancel()
                #expect(!events.all.contains { if case .reconnecting = $0 { true } else { false } }, "\(events.all)")
                #expect(python.events.filter { $0.event == "handshake" }.count == 1)
            }
        }
    }

    // MARK: Proxies

    @Test("a socket through squid goes through a CONNECT tunnel with the proxy's credentials", .requires(.squid), arguments: Scheme.allCases)
    func throughSquid(scheme: Scheme) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let credentials = ProxyCredentials(username: squid.credentials.username, password: squid.credentials.password)
                let proxy = Proxy.http(host: "127.0.0.1", port: squid.port, credentials: credentials)
                try await Self.withClient(python, scheme, proxy: proxy) { client in
                    let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                    try await socket.send(.text("through squid"))
                    var messages = socket.messages.makeAsyncIterator()
                    #expect(try await messages.next() == .text("through squid"))
                    await socket.close()
                }
                let port = (scheme == .wss ? python.secureWebSocketURL : python.webSocketURL).port ?? 0
                let tunnel = try await squid.accessRecord { $0.method == "CONNECT" && $0.url == "127.0.0.1:\(port)" }
                #expect(tunnel.user == squid.credentials.username)
                #expect(tunnel.status == 200)
                #expect(tunnel.result == "TCP_TUNNEL")
            }
        }
    }

    @Test("a socket through dante goes through SOCKS5", .requires(.dante), arguments: Scheme.allCases)
    func throughDante(scheme: Scheme) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await withInteropServer(try await DanteProxy.start()) { dante in
                try await Self.withClient(python, scheme, proxy: .socks5(host: "127.0.0.1", port: dante.port)) { client in
                    let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                    try await socket.send(.text("through dante"))
                    var messages = socket.messages.makeAsyncIterator()
                    #expect(try await messages.next() == .text("through dante"))
                    await socket.close()
                }
                try await dante.waitForConnect(toPort: (scheme == .wss ? python.secureWebSocketURL : python.webSocketURL).port ?? 0)
            }
        }
    }

    // MARK: The URLSession transport

    @Test("the default URLSession transport: without WebSocket support in libcurl, opening fails at once with transportFailed naming AsyncHTTPClient; with it, the echo works")
    func urlSessionTransport() async throws {
        #if os(Linux)
        let libcurlSpeaksWebSockets = try #require(CurlCommand.protocols, "curl --version names no protocols").contains("ws")
        #else
        let libcurlSpeaksWebSockets = true
        #endif
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let client = Client(baseURL: BaseURL(python.baseURL))
            if libcurlSpeaksWebSockets {
                let socket = try await withinBound(.seconds(30), "opening through URLSession") {
                    try await client.webSocket(Request<Void>(.get, "echo"))
                }
                try await socket.send(.text("through URLSession"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("through URLSession"))
                await socket.close()
            } else {
                let error = await #expect(throws: CourierError.self) {
                    try await withinBound(.seconds(10), "opening through URLSession without WebSocket support") {
                        try await client.webSocket(Request<Void>(.get, "echo"))
                    }
                }
                #expect(error?.kind == .transportFailed)
                #expect(error?.message?.contains("AsyncHTTPClient") == true, "\(String(describing: error?.message))")
                #expect(python.events.filter { $0.event == "handshake" }.isEmpty)
            }
        }
    }

    @Test("without WebSocket support in libcurl, users see a plain sentence and the developer's remedy is in message and failureReason")
    func urlSessionRefusalShownToUsers() async throws {
        try #require(CurlCommand.protocols?.contains("ws") == false, "this libcurl speaks WebSockets")
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let client = Client(baseURL: BaseURL(python.baseURL))
            let error = await #expect(throws: CourierError.self) { try await client.webSocket(Request<Void>(.get, "echo")) }
            #expect(error?.message?.contains("AsyncHTTPClient") == true)
            // CourierError.errorDescription: a transportFailed error shows users a plain sentence.
            #expect(error?.localizedDescription.contains("AsyncHTTPClient") == false, "\(String(describing: error?.localizedDescription))")
            #expect(error?.failureReason?.contains("AsyncHTTPClient") == true, "\(String(describing: error?.failureReason))")
        }
    }
}
#endif
