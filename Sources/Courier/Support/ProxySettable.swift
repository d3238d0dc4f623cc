import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Network)
import Network
#endif

/// A session configuration a ``Proxy`` is set on: the seam between the URLSession transport's
/// decision (``SessionTransport/apply(_:to:documentedKeys:)``, tested everywhere) and the
/// platform's proxy settings.
protocol ProxySettable: AnyObject {
    /// CFNetwork's proxy dictionary, for platforms without Network's proxy configurations.
    var connectionProxyDictionary: [AnyHashable: Any]? { get set }

    /// Sets `proxy` as Network's proxy configuration, the hosts in `excludedDomains` reached
    /// directly.
    /// - Returns: Whether it was set: `false` where the platform has no such setting.
    func setProxyConfiguration(_ proxy: Proxy, excludedDomains: [String]) -> Bool
}

extension URLSessionConfiguration: ProxySettable {
    /// `proxyConfigurations` with one `ProxyConfiguration` (HTTP `CONNECT` or SOCKSv5), on iOS 17,
    /// macOS 14, tvOS 17, watchOS 10 and visionOS 1 and later.
    func setProxyConfiguration(_ proxy: Proxy, excludedDomains: [String]) -> Bool {
        #if canImport(Network)
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *), let exact = UInt16(exactly: proxy.port), let port = NWEndpoint.Port(rawValue: exact) {
            let endpoint = NWEndpoint.hostPort(host: NWEndpoint.Host(proxy.host), port: port)
            var configuration = proxy.kind == .socks5 ? ProxyConfiguration(socksv5Proxy: endpoint) : ProxyConfiguration(httpCONNECTProxy: endpoint)
            configuration.excludedDomains = excludedDomains
            if let credentials = proxy.credentials { configuration.applyCredential(username: credentials.username, password: credentials.password) }
            proxyConfigurations = [configuration]
            return true
        }
        #endif
        return false
    }
}
