import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("A proxy reaches URLSession as Network's proxy configuration, else as the dictionary keys the platform documents")
struct SessionProxySettingTests {
    /// A configuration that records what it was given; `hasNetworkProxies` says whether the
    /// platform it stands for has `proxyConfigurations`.
    final class RecordedConfiguration: ProxySettable {
        let hasNetworkProxies: Bool
        var connectionProxyDictionary: [AnyHashable: Any]?
        var networkProxy: (proxy: Proxy, excludedDomains: [String])?

        init(hasNetworkProxies: Bool) { self.hasNetworkProxies = hasNetworkProxies }

        func setProxyConfiguration(_ proxy: Proxy, excludedDomains: [String]) -> Bool {
            guard hasNetworkProxies else { return false }
            networkProxy = (proxy, excludedDomains)
            return true
        }
    }

    let proxy = Proxy.http(host: "proxy.corp", port: 3128).bypassing(["localhost", ".internal.example"])

    @Test("where Network's proxy configurations exist they are used alone, bypassed domains without their leading dot")
    func networkProxies() {
        let configuration = RecordedConfiguration(hasNetworkProxies: true)
        #expect(SessionTransport.apply(proxy, to: configuration, documentedKeys: true))
        #expect(configuration.networkProxy?.proxy == proxy)
        #expect(configuration.networkProxy?.excludedDomains == ["internal.example", "localhost"])
        #expect(configuration.connectionProxyDictionary == nil)
    }

    @Test("without them, the dictionary is set where its keys are documented (macOS 13)")
    func dictionaryWhereDocumented() {
        let configuration = RecordedConfiguration(hasNetworkProxies: false)
        #expect(SessionTransport.apply(.socks5(host: "socks.corp", port: 1080), to: configuration, documentedKeys: true))
        #expect(configuration.connectionProxyDictionary?["SOCKSProxy"] as? String == "socks.corp")
        #expect(configuration.networkProxy == nil)
    }

    @Test("with neither (iOS 16, tvOS 16, watchOS 9), nothing is set and the proxy is refused")
    func refusedWithNeither() {
        let configuration = RecordedConfiguration(hasNetworkProxies: false)
        #expect(!SessionTransport.apply(proxy, to: configuration, documentedKeys: false))
        #expect(configuration.connectionProxyDictionary == nil)
        #expect(configuration.networkProxy == nil)
    }

    @Test("Linux's URLSession has no Network proxy configurations")
    func linuxHasNone() {
        guard SessionTransport.ignoresProxySettings else { return }
        #expect(!URLSessionConfiguration.ephemeral.setProxyConfiguration(proxy, excludedDomains: []))
        #expect(!PlatformURLSession.documentsProxyDictionaryKeys)
    }
}
