#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

@Suite("Opening a WebSocket: every way it can fail ends cleanly, on the route every call takes")
struct WebSocketOpeningTests {
    @Test("1,000 handshakes to a closed port each fail notConnected; no trap, descriptors and memory back to where they were")
    func refusedConnections() async throws {
        let closedPort = try await ReferenceServer.unusedPort()
        let client = Client(baseURL: BaseURL("http://127.0.0.1:\(closedPort)"), transport: .asyncHTTPClient())
        // The first refusal warms up what any socket needs (event loops, the resolver).
        _ = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
        let descriptors = ProcessResources.openDescriptors
        let memory = ProcessResources.residentBytes
        var kinds: [CourierError.Kind: Int] = [:]
        for _ in 0..<1_000 {
            let refused = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
            kinds[refused.error?.kind ?? .invalidRequest, default: 0] += 1
        }
        #expect(kinds == [.notConnected: 1_000])
        // A promise left behind traps when it is released; a socket left open per handshake would
        // add 1,000 descriptors; a connection's state kept per handshake (a channel, a TLS
        // context: 256 KiB or more each) would add 256 MiB. The bounds leave room for the tests
        // running beside this one in the same process, a 32 MiB WebSocket message among them.
        #expect(await eventually { ProcessResources.openDescriptors < descriptors + 100 })
        #expect(ProcessResources.residentBytes - memory < 256 << 20)
    }

    @Test("a server that never answers the handshake: timedOut at the call's timeout, and the connection closed")
    func silentServerTimesOut() async throws {
        let silent = try await HostileServer.start(.replyAndKeepOpen(""))
        let client = Client(baseURL: BaseURL("http://127.0.0.1:\(silent.port)"), transport: .asyncHTTPClient()) {
            $0.timeout = .milliseconds(300)
        }
        let refused = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
        #expect(refused.error?.kind == .timedOut)
        #expect(silent.connections == 1)
        await silent.stop()
    }

    @Test("cancelling the task during the handshake ends it with cancelled, as cancelAll() does")
    func cancelledDuringHandshake() async throws {
        let silent = try await HostileServer.start(.replyAndKeepOpen(""))
        let client = Client(baseURL: BaseURL("http://127.0.0.1:\(silent.port)"), transport: .asyncHTTPClient())
        let opening = Task { try await client.webSocket(Request<Void>(.get, "echo")) }
        #expect(await eventually { silent.connections == 1 })
        opening.cancel()
        #expect((await opening.result.error as? CourierError)?.kind == .cancelled)
        let second = Task { try await client.webSocket(Request<Void>(.get, "echo")) }
        #expect(await eventually { silent.connections == 2 })
        client.cancelAll()
        #expect((await second.result.error as? CourierError)?.kind == .cancelled)
        await silent.stop()
    }

    @Test("a redirect is a refusal with its status: a handshake follows no redirect")
    func redirectIsRefusal() async throws {
        let redirecting = try await HostileServer.start(.reply("HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n"))
        let client = Client(baseURL: BaseURL("http://127.0.0.1:\(redirecting.port)"), transport: .asyncHTTPClient())
        let refused = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
        #expect(refused.error?.webSocket?.reason == .handshakeRefused)
        #expect(refused.error?.status == .found)
        #expect(redirecting.connections == 1)
        await redirecting.stop()
    }

    @Test("a refusal's cookies reach the jar, as any response's do")
    func refusalCookiesStored() async throws {
        let refusing = try await HostileServer.start(
            .reply("HTTP/1.1 403 Forbidden\r\nSet-Cookie: session=s1; Path=/\r\nContent-Length: 0\r\n\r\n")
        )
        let jar = CookieJar()
        let client = Client(baseURL: BaseURL("http://127.0.0.1:\(refusing.port)"), transport: .asyncHTTPClient()) { $0.cookieJar = jar }
        let refused = await capture { try await client.webSocket(Request<Void>(.get, "echo")) }
        #expect(refused.error?.status == .forbidden)
        #expect(jar.cookies.map(\.name) == ["session"])
        await refusing.stop()
    }
}
#endif
