import Courier
import Foundation
import ReferenceServer
import TestSupport
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// Checks of "Connections" (Proxies), written from the article alone: what squid's access log and
/// dante's log record. Proxies are the AsyncHTTPClient transport's; on Linux the URLSession
/// transport refuses any proxy when it is created, as the article says.
@Suite("Through squid and dante: credentials, the bypass list and plain-http origins, as Connections describes them", .requires(.squid, .dante, .nginx))
struct ProxyDocsInteropTests {
    #if AsyncHTTPClient
    @Test("wrong Basic credentials: proxyAuthenticationRequired, squid records the 407, and the password appears in no description or dump")
    func wrongCredentials() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let wrongPassword = "not-the-squid-secret-71x"
                let proxy = Proxy.http(host: "127.0.0.1", port: squid.port, credentials: ProxyCredentials(username: squid.credentials.username, password: wrongPassword))
                let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: proxy)
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport) { $0.timeout = .seconds(20) }
                let refused = await capture { try await client.send(Request<Data>(.get, "anything.txt")) }
                try await transport.shutdown()
                let error = try #require(refused.error)
                #expect(error.kind == .proxyAuthenticationRequired)
                for text in [error.description, String(reflecting: error), error.localizedDescription, reflectedText(of: error), reflectedText(of: proxy), reflectedText(of: transport)] {
                    #expect(!text.contains(wrongPassword))
                }
                let record = try await squid.accessRecord { $0.method == "CONNECT" }
                #expect(record.status == 407)
                #expect(nginx.accessRecords.isEmpty)
            }
        }
    }

    @Test("a bypassed host (case ignored) is reached directly: nginx answers and squid records nothing")
    func bypassedHost() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("direct.txt", "direct")
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let credentials = ProxyCredentials(username: squid.credentials.username, password: squid.credentials.password)
                let port = try #require(nginx.httpURL.port)
                for (entry, origin) in [("127.0.0.1", "http://127.0.0.1:\(port)"), ("LocalHost", "http://localhost:\(port)")] {
                    let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .http(host: "127.0.0.1", port: squid.port, credentials: credentials).bypassing([entry]))
                    let client = Client(baseURL: BaseURL(try InteropTemplate.url(origin)), transport: transport)
                    let body = await capture { try await client.send(Request<Data>(.get, "direct.txt", query: ["entry": entry])) }
                    try await transport.shutdown()
                    #expect((try? body.get()).map { String(decoding: $0, as: UTF8.self) } == "direct", "\(entry)")
                    _ = try await nginx.accessRecord { $0.uri == "/direct.txt?entry=\(entry)" }
                }
                #expect(squid.accessRecords.isEmpty)
            }
        }
    }

    @Test(
        "an entry that does not match the origin's host (a name for its address, a port, another address, a wildcard) sends it through squid",
        arguments: ["localhost", "127.0.0.1:PORT", "127.0.0.2", "*.0.0.1", "127.0.0.1.example"]
    )
    func entryThatDoesNotBypass(entry: String) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("proxied.txt", "proxied")
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let credentials = ProxyCredentials(username: squid.credentials.username, password: squid.credentials.password)
                let port = try #require(nginx.httpURL.port)
                let proxy = Proxy.http(host: "127.0.0.1", port: squid.port, credentials: credentials)
                    .bypassing([entry.replacingOccurrences(of: "PORT", with: String(port))])
                let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: proxy)
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport)
                let body = await capture { try await client.send(Request<Data>(.get, "proxied.txt")) }
                try await transport.shutdown()
                #expect((try? body.get()).map { String(decoding: $0, as: UTF8.self) } == "proxied")
                let tunnel = try await squid.accessRecord { $0.method == "CONNECT" && $0.url == "127.0.0.1:\(port)" }
                #expect(tunnel.status == 200)
            }
        }
    }

    @Test("a plain-http origin through a squid that, as stock squid, denies CONNECT to ports outside SSL_ports: notConnected saying why and what to do; https passes")
    func plainHTTPOriginThroughStockSquid() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("plain.txt", "plain")
            let httpPort = try #require(nginx.httpURL.port)
            let httpsPort = try #require(nginx.httpsURL.port)
            try await withInteropServer(try await SquidProxy.start(connectPorts: [httpsPort])) { squid in
                let credentials = ProxyCredentials(username: squid.credentials.username, password: squid.credentials.password)
                let proxy = Proxy.http(host: "127.0.0.1", port: squid.port, credentials: credentials)
                let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [nginx.certificates.rootCertificatePEM]), proxy: proxy)
                let plain = Client(baseURL: BaseURL(nginx.httpURL), transport: transport) { $0.timeout = .seconds(20) }
                let refused = await capture { try await plain.send(Request<Data>(.get, "plain.txt")) }
                let secure = Client(baseURL: BaseURL(nginx.httpsURL), transport: transport)
                let passed = await capture { try await secure.send(Request<Data>(.get, "plain.txt")) }
                try await transport.shutdown()

                let error = try #require(refused.error)
                let message = error.message ?? ""
                #expect(error.kind == .notConnected)
                #expect(message.contains("\(httpPort)"), "\(message)")
                #expect(message.contains("https"), "\(message)")
                #expect(message.contains("SSL_ports"), "\(message)")
                #expect(message.contains("bypass"), "\(message)")
                #expect(!reflectedText(of: error).contains(squid.credentials.password))
                let denied = try await squid.accessRecord { $0.method == "CONNECT" && $0.url == "127.0.0.1:\(httpPort)" }
                #expect(denied.status == 403)
                #expect(denied.result.contains("DENIED"))

                #expect((try? passed.get()).map { String(decoding: $0, as: UTF8.self) } == "plain")
                let tunnel = try await squid.accessRecord { $0.method == "CONNECT" && $0.url == "127.0.0.1:\(httpsPort)" }
                #expect(tunnel.status == 200)
                #expect(!nginx.accessRecords.contains { $0.port == httpPort })
            }
        }
    }

    @Test("a SOCKS5 proxy that cannot reach the server (dante's ruleset blocks it): notConnected with the proxy's reply")
    func danteCannotReach() async throws {
        try await withInteropServer(try await DanteProxy.start()) { dante in
            let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .socks5(host: "127.0.0.1", port: dante.port))
            // 192.0.2.0/24 is TEST-NET-1; danted.conf passes loopback destinations only.
            let client = Client(baseURL: "http://192.0.2.1:8080", transport: transport) { $0.timeout = .seconds(20) }
            let refused = await capture { try await client.send(Request<Data>(.get, "unreachable")) }
            try await transport.shutdown()
            let error = try #require(refused.error)
            #expect(error.kind == .notConnected)
            // RFC 1928's reply 2: "connection not allowed by ruleset".
            #expect(error.message?.contains("SOCKS5") == true, "\(error.message ?? "no message")")
            #expect(error.message?.contains("connection not allowed by ruleset (reply 2)") == true, "\(error.message ?? "no message")")
            _ = try await InteropRecordMissing.wait(for: "danted block of 192.0.2.1", within: .seconds(30), record: dante.log) {
                dante.log.split(separator: "\n").first { $0.contains("block") && $0.contains("192.0.2.1") }
            }
        }
    }
    #endif

    @Test("on Linux the URLSession transport refuses a SOCKS5 proxy and a bypass list when it is created, naming the AsyncHTTPClient transport")
    func urlSessionRefusesSOCKS() async throws {
        #if os(Linux)
        try await withInteropServer(try await DanteProxy.start()) { dante in
            for proxy in [Proxy.socks5(host: "127.0.0.1", port: dante.port), Proxy.http(host: "127.0.0.1", port: dante.port).bypassing(["localhost"])] {
                let error = #expect(throws: CourierError.self) { try SessionTransport(clientIdentity: nil, proxy: proxy) }
                #expect(error?.kind == .invalidRequest)
                #expect(error?.message?.contains("AsyncHTTPClient") == true)
            }
            #expect(!dante.log.contains("tcp/connect ["))
        }
        #endif
    }
}
