// WebSockets are the AsyncHTTPClient transport's: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

@Suite("WebSockets that hold against Python's websockets: pins, cancellation, closes, proxies", .requires(.pythonServers))
struct WebSocketFailureInteropTests {
    @Test("wss to a pinned host opens with the right pin, after the TLS handshake has delivered the certificate")
    func rightPinOpens() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let pin = try PublicKeyPin(sha256Base64: python.certificates.serverPublicKeySHA256)
            let transport = try HTTPClientTransport(
                trust: ServerTrust(additionalRootCertificates: [python.certificates.rootCertificatePEM], pins: ["127.0.0.1": [pin]])
            )
            let client = Client(baseURL: BaseURL(python.secureBaseURL), transport: transport) { $0.hostsRequiringPins = ["127.0.0.1"] }
            let socket = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
            let opened = try socket.get()
            try await opened.send(.text("pinned"))
            var messages = opened.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("pinned"))
            await opened.close()
            try await transport.shutdown()
        }
    }

    @Test("wss with a wrong pin fails untrustedServer naming the key presented, and no handshake reaches the server")
    func wrongPinRefuses() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let wrong = try PublicKeyPin(sha256Base64: Data(repeating: 7, count: 32).base64EncodedString())
            let transport = try HTTPClientTransport(
                trust: ServerTrust(additionalRootCertificates: [python.certificates.rootCertificatePEM], pins: ["127.0.0.1": [wrong]])
            )
            let client = Client(baseURL: BaseURL(python.secureBaseURL), transport: transport)
            let refused = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
            try await transport.shutdown()
            #expect(refused.error?.kind == .untrustedServer)
            let message = refused.error?.message ?? ""
            #expect(message.contains(python.certificates.serverPublicKeySHA256))
            #expect(message.contains(String(describing: wrong)))
            #expect(!python.events.contains { $0.event == "handshake" })
        }
    }

    @Test("wss to a server whose root is not trusted fails untrustedServer, as a call does")
    func untrustedRootRefuses() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let client = Client(baseURL: BaseURL(python.secureBaseURL), transport: .asyncHTTPClient())
            let refused = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
            #expect(refused.error?.kind == .untrustedServer)
            #expect(!python.events.contains { $0.event == "handshake" })
        }
    }

    @Test("a host in hostsRequiringPins is refused before a byte is sent when the transport pins nothing", arguments: [false, true])
    func requiredPinsRefuseUnpinnedTransport(secure: Bool) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [python.certificates.rootCertificatePEM]))
            let base = secure ? python.secureBaseURL : python.baseURL
            let client = Client(baseURL: BaseURL(base), transport: transport) { $0.hostsRequiringPins = ["127.0.0.1"] }
            let refused = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
            try await transport.shutdown()
            #expect(refused.error?.kind == .untrustedServer)
            #expect(refused.error?.message?.contains("hostsRequiringPins") == true)
            #expect(python.events.isEmpty)
        }
    }

    @Test(
        "a send the peer does not read ends with cancelled as soon as its task is cancelled; the socket still closes",
        .timeLimit(.minutes(2))
    )
    func cancelledSendReturns() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let client = Client(baseURL: BaseURL(python.baseURL), transport: .asyncHTTPClient())
            let socket = try await client.webSocket(Request<Void>(.get, "stop-reading")) { $0.outgoingBufferLimit = 64 << 10 }
            let port = try #require(python.baseURL.port)
            // Far more than loopback's socket buffers hold, in pieces small enough that masking one
            // never holds the event loop for long: once the buffers are full, a write cannot finish.
            let sending = Task {
                for _ in 0..<1_024 { try await socket.send(.binary(Data(count: 256 << 10))) }
            }
            // Bytes waiting in the socket's send queue show the buffers full and a write under way;
            // where the queue cannot be read, the cancellation below may find the send waiting for
            // room instead, which must end the same way.
            _ = await eventually(within: .seconds(20)) { ProcessResources.queuedBytes(toPort: port) > 0 }
            sending.cancel()
            let outcome = await sending.result
            #expect((outcome.error as? CourierError)?.kind == .cancelled)
            await socket.close(.normalClosure, reason: "")
        }
    }

    @Test("a frame over the limit ends the socket with 1009, and the server receives that close", arguments: [2 << 20, 48 << 20])
    func overLimitFrameCloseArrives(bytes: Int) async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let client = Client(baseURL: BaseURL(python.baseURL), transport: .asyncHTTPClient())
            let socket = try await client.webSocket(Request<Void>(.get, "big", query: ["bytes": "\(bytes)"]))
            var messages = socket.messages.makeAsyncIterator()
            let ended = await capture { try await messages.next() }
            #expect(ended.error?.webSocket?.reason == .messageTooLarge)
            let closed = try await python.event { $0.path.hasPrefix("/big") && $0.event == "closed" }
            #expect(closed.received?.code == 1009)
        }
    }

    @Test("a server's normal close (1000) ends the messages with closedByServer, its code and reason readable")
    func normalCloseEndsMessages() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let client = Client(baseURL: BaseURL(python.baseURL), transport: .asyncHTTPClient())
            let socket = try await client.webSocket(Request<Void>(.get, "close", query: ["code": "1000", "reason": "bye"]))
            var messages = socket.messages.makeAsyncIterator()
            let ended = await capture { try await messages.next() }
            #expect(ended.error?.webSocket == WebSocketFailure(.closedByServer, closeCode: .normalClosure, closeReason: "bye"))
            let closed = try await python.event { $0.path.hasPrefix("/close") && $0.event == "closed" }
            #expect(closed.received?.code == 1000)
        }
    }
}

@Suite("WebSockets through squid (CONNECT with Basic) and dante (SOCKS5), as the proxies record it", .requires(.pythonServers, .squid, .dante))
struct WebSocketProxyInteropTests {
    @Test("a socket through squid's CONNECT tunnel with Basic credentials echoes, and squid records the tunnel")
    func throughSquid() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let credentials = ProxyCredentials(username: squid.credentials.username, password: squid.credentials.password)
                let transport = try HTTPClientTransport(
                    trust: ServerTrust(additionalRootCertificates: [python.certificates.rootCertificatePEM]),
                    proxy: .http(host: "127.0.0.1", port: squid.port, credentials: credentials)
                )
                let client = Client(baseURL: BaseURL(python.secureBaseURL), transport: transport)
                let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                try await socket.send(.text("through squid"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("through squid"))
                await socket.close()
                try await transport.shutdown()
                let port = try #require(python.secureBaseURL.port)
                let tunnel = try await squid.accessRecord { $0.method == "CONNECT" && $0.url == "127.0.0.1:\(port)" }
                #expect(tunnel.user == squid.credentials.username)
            }
        }
    }

    @Test("without credentials squid's 407 is proxyAuthenticationRequired, and nothing reaches the server")
    func squidWantsCredentials() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .http(host: "127.0.0.1", port: squid.port))
                let client = Client(baseURL: BaseURL(python.baseURL), transport: transport)
                let refused = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
                try await transport.shutdown()
                #expect(refused.error?.kind == .proxyAuthenticationRequired)
                #expect(python.events.isEmpty)
            }
        }
    }

    @Test("a socket through dante's SOCKS5 echoes, and dante records the connection")
    func throughDante() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await withInteropServer(try await DanteProxy.start()) { dante in
                let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .socks5(host: "127.0.0.1", port: dante.port))
                let client = Client(baseURL: BaseURL(python.baseURL), transport: transport)
                let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                try await socket.send(.text("through dante"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("through dante"))
                await socket.close()
                try await transport.shutdown()
                try await dante.waitForConnect(toPort: try #require(python.baseURL.port))
            }
        }
    }

    @Test("a host the proxy bypasses is reached directly: squid records nothing")
    func bypassedHostGoesDirect() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let transport = try HTTPClientTransport(
                    trust: ServerTrust(),
                    proxy: .http(host: "127.0.0.1", port: squid.port).bypassing(["127.0.0.1"])
                )
                let client = Client(baseURL: BaseURL(python.baseURL), transport: transport)
                let socket = try await client.webSocket(Request<Void>(.get, "echo"))
                try await socket.send(.text("direct"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("direct"))
                await socket.close()
                try await transport.shutdown()
                #expect(!squid.accessRecords.contains { $0.method == "CONNECT" })
            }
        }
    }
}
#endif
