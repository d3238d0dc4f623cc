// WebSockets are the AsyncHTTPClient transport's: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

@Suite("Against Python's websockets: as the server's own record shows it", .requires(.pythonServers))
struct WebSocketInteropTests {
    @Test("messages sent to /echo come back in order, and the server records them and the client's close")
    func echo() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let client = Client(baseURL: BaseURL(python.baseURL), transport: .asyncHTTPClient())
            let socket = try await client.webSocket(Request<Void>(.get, "echo"))
            #expect(socket.response.status == .switchingProtocols)
            try await socket.send(.text("héllo websockets"))
            try await socket.send(.binary(Data([0, 1, 2, 255])))
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("héllo websockets"))
            #expect(try await messages.next() == .binary(Data([0, 1, 2, 255])))
            await socket.close(.normalClosure, reason: "done")
            let closed = try await python.event { $0.path == "/echo" && $0.event == "closed" }
            #expect(closed.received?.code == 1000)
            #expect(closed.received?.reason == "done")
            let received = python.events.filter { $0.connection == closed.connection && $0.event == "message" }
            #expect(received.map(\.type) == ["text", "binary"])
            #expect(received.first?.text == "héllo websockets")
            #expect(received.last?.bytes == 4)
        }
    }

    @Test("wss with the test CA as a root: the echo comes back over TLS")
    func secureEcho() async throws {
        try await withInteropServer(try await PythonWebSocketServer.start()) { python in
            let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [python.certificates.rootCertificatePEM]))
            let client = Client(baseURL: BaseURL(python.secureBaseURL), transport: transport)
            let socket = try await client.webSocket(Request<Void>(.get, "echo"))
            try await socket.send(.text("over tls"))
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("over tls"))
            await socket.close(.normalClosure, reason: "")
            let closed = try await python.event { $0.path == "/echo" && $0.event == "closed" }
            #expect(closed.received?.code == 1000)
            try await transport.shutdown()
        }
    }
}
#endif
