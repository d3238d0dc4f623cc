import Courier
import Foundation
import TestSupport
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

@Suite("Through squid (Basic credentials) and dante (SOCKS5), as the proxies' own logs record it", .requires(.squid, .dante, .nginx))
struct ProxyInteropTests {
    #if AsyncHTTPClient
    @Test("the AsyncHTTPClient transport opens a CONNECT tunnel through squid with Basic credentials, and squid records the user")
    func squidConnect() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("through-squid.txt", "tunnelled")
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let credentials = ProxyCredentials(username: squid.credentials.username, password: squid.credentials.password)
                let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .http(host: "127.0.0.1", port: squid.port, credentials: credentials))
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport)
                let body = await capture { try await client.send(Request<Data>(.get, "through-squid.txt")) }
                // squid writes a tunnel's line when the tunnel closes.
                try await transport.shutdown()
                #expect(String(decoding: try body.get(), as: UTF8.self) == "tunnelled")
                let port = try #require(nginx.httpURL.port)
                let tunnel = try await squid.accessRecord { $0.method == "CONNECT" && $0.url == "127.0.0.1:\(port)" }
                #expect(tunnel.user == squid.credentials.username)
                #expect(tunnel.status == 200)
                _ = try await nginx.accessRecord { $0.uri == "/through-squid.txt" && $0.status == 200 }
            }
        }
    }

    @Test("without credentials squid answers 407: the proxy error kind, and squid records the refusal")
    func squidRefusesWithoutCredentials() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await withInteropServer(try await SquidProxy.start()) { squid in
                let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .http(host: "127.0.0.1", port: squid.port))
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport) { $0.timeout = .seconds(20) }
                let refused = await capture { try await client.send(Request<Data>(.get, "anything.txt")) }
                try await transport.shutdown()
                #expect(refused.error?.kind == .proxyAuthenticationRequired)
                let record = try await squid.accessRecord { $0.method == "CONNECT" }
                #expect(record.status == 407)
                #expect(nginx.accessRecords.isEmpty)
            }
        }
    }

    @Test("the AsyncHTTPClient transport reaches nginx through dante's SOCKS5, and dante records the connection")
    func danteSOCKS5() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("through-dante.txt", "socks")
            try await withInteropServer(try await DanteProxy.start()) { dante in
                let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .socks5(host: "127.0.0.1", port: dante.port))
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport)
                let body = await capture { try await client.send(Request<Data>(.get, "through-dante.txt")) }
                try await transport.shutdown()
                #expect(String(decoding: try body.get(), as: UTF8.self) == "socks")
                try await dante.waitForConnect(toPort: try #require(nginx.httpURL.port))
                _ = try await nginx.accessRecord { $0.uri == "/through-dante.txt" && $0.status == 200 }
            }
        }
    }
    #endif

    @Test("the URLSession transport on Linux refuses squid's proxy when it is created, naming the AsyncHTTPClient transport")
    func urlSessionRefusesProxy() async throws {
        #if os(Linux)
        try await withInteropServer(try await SquidProxy.start()) { squid in
            let credentials = ProxyCredentials(username: squid.credentials.username, password: squid.credentials.password)
            let error = #expect(throws: CourierError.self) {
                try SessionTransport(clientIdentity: nil, proxy: .http(host: "127.0.0.1", port: squid.port, credentials: credentials))
            }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message?.contains("AsyncHTTPClient") == true)
            #expect(squid.accessRecords.isEmpty)
        }
        #endif
    }
}
