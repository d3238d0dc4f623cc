// Proxies are the AsyncHTTPClient transport's: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import Logging
import ReferenceServer
import TestSupport
import Testing

@Suite(
    "Through real proxies: tinyproxy (HTTP CONNECT) and microsocks (SOCKS5)",
    .timingSensitive,
    .enabled(if: ProxyProcess.isInstalled("tinyproxy") && ProxyProcess.isInstalled("microsocks"), "needs tinyproxy and microsocks: apt-get install tinyproxy-bin microsocks")
)
struct ProxyTests {
    static let password = "proxy-secret-9dq2"

    /// Sends `GET echo` to `server` through a transport with `proxy`, then shuts the transport down;
    /// every log line of the exchange goes to `log`.
    static func echo(_ server: ReferenceServer, through proxy: Proxy, log: LockedBox<[String]> = LockedBox([])) async throws -> Result<JSONValue, CourierError> {
        let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: proxy)
        let logger = Logger(label: "proxy-test") { _ in LogCapture(lines: log) }
        let client = Client(baseURL: BaseURL(server.baseURL), transport: transport) {
            $0.timeout = .seconds(20)
            $0.middleware = [LoggingMiddleware(logger: logger, level: .debug)]
        }
        let result = await capture { try await client.send(Request<JSONValue>(.get, "echo")) }
        try await transport.shutdown()
        return result
    }

    /// Whether the echoed request carried a field named `name`.
    static func echoedField(_ name: String, in echo: JSONValue) -> Bool {
        echo["headers"]?.arrayValue?.contains { $0[0]?.stringValue?.lowercased() == name.lowercased() } ?? false
    }

    static func origin(_ server: ReferenceServer) -> String {
        String(server.baseURL.dropFirst("http://".count))
    }

    @Test("an HTTP proxy opens a tunnel with CONNECT, with and without credentials, and the origin never sees them")
    func httpConnect() async throws {
        try await withBackends { backends in
            let open = try await ProxyProcess.tinyproxy()
            defer { open.stop() }
            let plain = try await Self.echo(backends.server, through: .http(host: "127.0.0.1", port: open.port)).get()
            #expect(plain["path"]?.stringValue == "/echo")
            #expect(open.log.contains("CONNECT \(Self.origin(backends.server))"))

            let guarded = try await ProxyProcess.tinyproxy(credentials: ("ada", Self.password))
            defer { guarded.stop() }
            let log = LockedBox<[String]>([])
            let credentials = ProxyCredentials(username: "ada", password: Self.password)
            let echo = try await Self.echo(backends.server, through: .http(host: "127.0.0.1", port: guarded.port, credentials: credentials), log: log).get()
            #expect(guarded.log.contains("CONNECT \(Self.origin(backends.server))"))
            #expect(!Self.echoedField("Proxy-Authorization", in: echo))
            #expect(!log.all.joined().contains(Self.password))
            #expect(!log.all.isEmpty)
        }
    }

    @Test("a proxy that wants credentials answers 407: an error kind of its own, without the password anywhere")
    func proxyAuthentication() async throws {
        try await withBackends { backends in
            let guarded = try await ProxyProcess.tinyproxy(credentials: ("ada", Self.password))
            defer { guarded.stop() }
            let missing = try await Self.echo(backends.server, through: .http(host: "127.0.0.1", port: guarded.port))
            #expect(missing.error?.kind == .proxyAuthenticationRequired)
            // tinyproxy 1.11 answers wrong credentials with 401, not 407: a refused tunnel.
            let wrong = ProxyCredentials(username: "ada", password: "not-\(Self.password)")
            let refused = try await Self.echo(backends.server, through: .http(host: "127.0.0.1", port: guarded.port, credentials: wrong))
            #expect(refused.error?.kind == .notConnected)
            #expect(refused.error?.message?.contains("proxy") == true)
            for error in [missing.error, refused.error].compactMap(\.self) {
                let text = "\(error) \(error.localizedDescription) \(String(reflecting: error))"
                #expect(!text.contains(Self.password))
            }
            #expect(!"\(wrong) \(String(reflecting: wrong))".contains(Self.password))
        }
    }

    @Test("a proxy that tunnels to 443 only, as squid's stock configuration, refuses a plain-http origin: the error says why and what to do")
    func refusedConnect() async throws {
        try await withBackends { backends in
            let strict = try await ProxyProcess.tinyproxy(connectPorts: [443])
            defer { strict.stop() }
            let (result, elapsed) = try await measure { try await Self.echo(backends.server, through: .http(host: "127.0.0.1", port: strict.port)) }
            let port = try #require(URL(string: backends.server.baseURL)?.port)
            #expect(result.error?.kind == .notConnected)
            let message = try #require(result.error?.message)
            #expect(message.hasPrefix("The proxy refused to open a tunnel (CONNECT) to port \(port): most proxies allow tunnels to port 443 (https) only"))
            #expect(message.contains("Use the server's https address"))
            #expect(message.contains("Proxy.bypassing"))
            #expect(elapsed < hangBound)
        }
    }

    @Test("a SOCKS5 proxy carries the request; one that wants credentials, or cannot reach the server, is a clear error")
    func socks5() async throws {
        try await withBackends { backends in
            let socks = try await ProxyProcess.microsocks()
            defer { socks.stop() }
            let echo = try await Self.echo(backends.server, through: .socks5(host: "127.0.0.1", port: socks.port)).get()
            #expect(echo["path"]?.stringValue == "/echo")

            let guarded = try await ProxyProcess.microsocks(credentials: ("ada", Self.password))
            defer { guarded.stop() }
            let refused = try await Self.echo(backends.server, through: .socks5(host: "127.0.0.1", port: guarded.port))
            #expect(refused.error?.kind == .proxyAuthenticationRequired)

            let closedPort = try await ReferenceServer.unusedPort()
            let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .socks5(host: "127.0.0.1", port: socks.port))
            let client = Client(baseURL: BaseURL("http://127.0.0.1:\(closedPort)"), transport: transport) { $0.timeout = .seconds(20) }
            let unreachable = await capture { try await client.send(Request<JSONValue>(.get, "echo")) }
            try await transport.shutdown()
            #expect(unreachable.error?.kind == .notConnected)
            #expect(unreachable.error?.message?.contains("SOCKS5") == true)
        }
    }

    @Test("SOCKS5 with credentials is refused when the transport is created, naming the remedy")
    func socks5CredentialsRefused() {
        // `socks5(host:port:credentials:)` is deprecated for this reason; credentials set afterwards are refused the same way.
        var proxy = Proxy.socks5(host: "127.0.0.1", port: 1080)
        proxy.credentials = ProxyCredentials(username: "ada", password: Self.password)
        let error = #expect(throws: CourierError.self) { try HTTPClientTransport(trust: ServerTrust(), proxy: proxy) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message?.contains("HTTP CONNECT") == true)
        #expect(error?.message?.contains(Self.password) == false)
    }

    @Test("a proxy without a host, or with a port outside 1...65535, is refused when the transport is created")
    func proxyAddressRefused() {
        for proxy in [Proxy.http(host: "127.0.0.1", port: 0), .http(host: "127.0.0.1", port: 70_000), .socks5(host: "", port: 1080)] {
            let error = #expect(throws: CourierError.self) { try HTTPClientTransport(trust: ServerTrust(), proxy: proxy) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message?.contains("a port from 1 to 65535") == true)
        }
    }

    @Test("a bypassed host is reached directly; any other goes through the proxy")
    func bypass() async throws {
        try await withBackends { backends in
            // Nothing listens where the proxy is said to be: only a bypassed host can be reached.
            let nowhere = try await ReferenceServer.unusedPort()
            let proxy = Proxy.http(host: "127.0.0.1", port: nowhere)
            let direct = try await Self.echo(backends.server, through: proxy.bypassing(["127.0.0.1"]))
            #expect((try? direct.get())?["path"]?.stringValue == "/echo")
            let proxied = try await Self.echo(backends.server, through: proxy.bypassing([".example.com"]))
            #expect(proxied.error?.kind == .notConnected)
            #expect(proxy.bypassing([".example.com"]).bypasses("api.EXAMPLE.com"))
            #expect(proxy.bypassing([".example.com"]).bypasses("example.com"))
            #expect(!proxy.bypassing([".example.com"]).bypasses("notexample.com"))
        }
    }

    @Test("an https origin through the proxy: the proxy sees only CONNECT host:port, never the request")
    func httpsThroughTunnel() async throws {
        let certificates = try LoopbackCertificates()
        var options = ReferenceServer.Options()
        options.tls = certificates
        try await withBackends(options: options) { backends in
            let tunnel = try await ProxyProcess.tinyproxy()
            defer { tunnel.stop() }
            let proxy = Proxy.http(host: "127.0.0.1", port: tunnel.port)
            let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM]), proxy: proxy)
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: transport) { $0.timeout = .seconds(20) }
            let echo = await capture { try await client.send(Request<JSONValue>(.get, "echo/through-tunnel", query: ["api_key": "tunnel-key"])) }
            try await transport.shutdown()
            #expect((try? echo.get())?["path"]?.stringValue == "/echo/through-tunnel")
            let host = String(backends.server.baseURL.dropFirst("https://".count))
            #expect(tunnel.log.contains("CONNECT \(host)"))
            #expect(!tunnel.log.contains("through-tunnel"))
            #expect(!tunnel.log.contains("tunnel-key"))
        }
    }
}
#endif
