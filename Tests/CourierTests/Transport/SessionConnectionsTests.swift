import Foundation
import Testing

@testable import Courier

@Suite("The URLSession transport applies the connection settings its platform can, and refuses the rest")
struct SessionConnectionsTests {
    @Test("a client certificate is refused at creation, naming the AsyncHTTPClient transport")
    func clientIdentityRefused() {
        let identity = ClientIdentity.pem(certificateChain: "chain", privateKey: "KEY-BYTES")
        let error = #expect(throws: CourierError.self) { try SessionTransport(clientIdentity: identity, proxy: nil) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message?.contains("HTTPClientTransport(trust:clientIdentity:)") == true)
        #expect(error?.message?.contains("KEY-BYTES") == false)
    }

    @Test("a Keychain identity is refused on Linux; elsewhere one the Keychain lacks is refused, saying so")
    func keychainIdentity() {
        let identity = ClientIdentity.keychain(label: "No Such Identity 7f3a")
        #expect(identity.description == "client identity (Keychain: No Such Identity 7f3a)")
        let error = #expect(throws: CourierError.self) { try SessionTransport(clientIdentity: identity, proxy: nil) }
        #expect(error?.kind == .invalidRequest)
        if SessionTransport.ignoresProxySettings {
            #expect(error?.message?.contains("HTTPClientTransport(trust:clientIdentity:)") == true)
        } else {
            #expect(error?.message?.contains("The Keychain holds no client identity (Keychain: No Such Identity 7f3a)") == true)
        }
    }

    @Test("a proxy is refused on Linux, naming the remedy; on Apple platforms an HTTP proxy's credentials are kept for its 407")
    func proxyRefused() throws {
        let credentials = ProxyCredentials(username: "ada", password: "proxy-pass")
        let http = Proxy.http(host: "127.0.0.1", port: 3128, credentials: credentials)
        if SessionTransport.ignoresProxySettings {
            let withCredentials = #expect(throws: CourierError.self) { try SessionTransport(clientIdentity: nil, proxy: http) }
            #expect(withCredentials?.message?.contains("HTTPClientTransport(trust:proxy:)") == true)
            #expect(withCredentials?.message?.contains("proxy-pass") == false)
        } else {
            #expect(try SessionTransport(clientIdentity: nil, proxy: http).delegate.credentials.proxy == credentials)
        }
        if SessionTransport.ignoresProxySettings {
            let plain = #expect(throws: CourierError.self) { try SessionTransport(clientIdentity: nil, proxy: .socks5(host: "127.0.0.1", port: 1080)) }
            #expect(plain?.message?.contains("ignores connectionProxyDictionary") == true)
        } else {
            _ = try SessionTransport(clientIdentity: nil, proxy: .socks5(host: "127.0.0.1", port: 1080))
        }
        _ = try SessionTransport(clientIdentity: nil, proxy: nil)
    }

    @Test("a proxy without a host, or with a port outside 1...65535, is refused on every platform, saying so", arguments: [(-1, "proxy.corp"), (0, "proxy.corp"), (65_536, "proxy.corp"), (3128, "")])
    func proxyAddressRefused(port: Int, host: String) {
        for proxy in [Proxy.http(host: host, port: port), .socks5(host: host, port: port)] {
            let error = #expect(throws: CourierError.self) { try SessionTransport(clientIdentity: nil, proxy: proxy) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message?.contains("a port from 1 to 65535") == true)
        }
    }

    @Test("a proxy becomes CFNetwork's proxy dictionary, a bypassed domain as a wildcard exception and as itself")
    func proxyDictionary() {
        let http = SessionTransport.proxyDictionary(for: Proxy.http(host: "proxy.corp", port: 3128).bypassing(["localhost", ".internal.example"]))
        #expect(http["HTTPSProxy"] as? String == "proxy.corp")
        #expect(http["HTTPSPort"] as? Int == 3128)
        #expect(http["HTTPEnable"] as? Int == 1)
        #expect(http["ExceptionsList"] as? [String] == ["*.internal.example", "internal.example", "localhost"])
        let socks = SessionTransport.proxyDictionary(for: .socks5(host: "socks.corp", port: 1080))
        #expect(socks["SOCKSProxy"] as? String == "socks.corp")
        #expect(socks["SOCKSPort"] as? Int == 1080)
        #expect(socks["HTTPSEnable"] == nil)
    }
}
