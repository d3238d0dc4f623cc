import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SessionTransport {
    /// Creates a transport with the connection settings URLSession can apply on this platform, and
    /// refuses the others with an error that names the remedy.
    ///
    /// On iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1 and later a ``Proxy`` becomes the
    /// session's `proxyConfigurations` (Network's HTTP `CONNECT` or SOCKSv5 proxy, the bypassed
    /// hosts excluded); on macOS 13 its `connectionProxyDictionary` (HTTPS through `CONNECT`,
    /// plain HTTP in absolute form, SOCKS5, the bypassed hosts as exceptions); earlier iOS, tvOS
    /// and watchOS document no dictionary keys for HTTPS or SOCKS, and refuse a proxy. An HTTP
    /// proxy's credentials answer its 407, once: refused again, the request fails with
    /// ``CourierError/Kind/proxyAuthenticationRequired``. A Keychain identity
    /// (``ClientIdentity/keychain(label:)``) is found now and presented when a server asks for a
    /// client certificate. Everything else is refused: a SOCKS5 proxy with
    /// credentials, a PEM or PKCS#12 ``ClientIdentity``, and any proxy or identity on Linux, where
    /// swift-corelibs-foundation ignores `connectionProxyDictionary` and never asks for a client
    /// certificate. The AsyncHTTPClient transport applies them all
    /// (`HTTPClientTransport(trust:clientIdentity:proxy:)`).
    /// - Parameters:
    ///   - session: The session whose configuration requests are sent with.
    ///   - trust: Additional roots and per-host pins (see ``init(session:trust:)``).
    ///   - clientIdentity: A client certificate: a Keychain identity, on Apple platforms.
    ///   - proxy: The proxy requests go through.
    /// - Throws: ``CourierError/Kind/invalidRequest`` for what this platform's URLSession cannot
    ///   apply, naming it and the remedy, and for a proxy without a host or with a port outside
    ///   1...65535; what ``init(session:trust:)`` throws.
    public init(session: URLSession = .courierShared, trust: ServerTrust = ServerTrust(), clientIdentity: ClientIdentity?, proxy: Proxy?) throws {
        var credentials = ChallengeCredentials()
        if let clientIdentity {
            guard let certificate = clientIdentity.sessionCertificate() else { throw CourierError(.invalidRequest, message: Self.refusal(of: clientIdentity)) }
            credentials.clientCertificate = certificate
        }
        guard let proxy else {
            try self.init(session: session, trust: trust, credentials: credentials)
            return
        }
        try proxy.checkAddress()
        if Self.ignoresProxySettings {
            throw CourierError(
                .invalidRequest,
                message: "URLSession on Linux cannot use a proxy an app sets (swift-corelibs-foundation ignores connectionProxyDictionary). "
                    + "Use the AsyncHTTPClient transport: HTTPClientTransport(trust:proxy:); or set libcurl's http_proxy, https_proxy and no_proxy."
            )
        }
        if proxy.kind == .socks5, proxy.credentials != nil {
            throw CourierError(
                .invalidRequest,
                message: "The URLSession transport cannot give a SOCKS5 proxy credentials (\(proxy)). "
                    + "Use an HTTP proxy, whose 407 it answers with them."
            )
        }
        let configuration = (session.configuration.copy() as? URLSessionConfiguration) ?? session.configuration
        guard Self.apply(proxy, to: configuration) else {
            throw CourierError(
                .invalidRequest,
                message: "URLSession applies a proxy from iOS 17, tvOS 17 and watchOS 10 (proxyConfigurations), or on macOS. "
                    + "Use the AsyncHTTPClient transport on earlier systems: HTTPClientTransport(trust:proxy:)."
            )
        }
        credentials.proxy = proxy.credentials
        try self.init(session: URLSession(configuration: configuration), trust: trust, credentials: credentials, owned: true)
    }

    /// Why `identity` cannot be presented here, and what to do.
    static func refusal(of identity: ClientIdentity) -> String {
        let remedy = "Use the AsyncHTTPClient transport: HTTPClientTransport(trust:clientIdentity:)."
        if ignoresProxySettings {
            return "The URLSession transport cannot present a client certificate (swift-corelibs-foundation never asks for one). " + remedy
        }
        if case .keychain = identity.source {
            return "The Keychain holds no \(identity) that this app can read."
        }
        return "The URLSession transport presents a client certificate from the Keychain only (ClientIdentity.keychain(label:)). " + remedy
    }

    /// Whether this platform's URLSession ignores `connectionProxyDictionary` (Linux).
    static var ignoresProxySettings: Bool { PlatformURLSession.ignoresConnectionSettings }

    /// Sets `proxy` on `configuration`: as Network's proxy configuration where there is one,
    /// otherwise as `connectionProxyDictionary` where the platform documents its keys.
    /// - Parameters:
    ///   - proxy: The proxy.
    ///   - configuration: The session configuration.
    ///   - documentedKeys: Whether the platform documents the dictionary's HTTPS, SOCKS and
    ///     exception keys (macOS only).
    /// - Returns: Whether the proxy was set; `false` leaves `configuration` as it was.
    static func apply(_ proxy: Proxy, to configuration: some ProxySettable, documentedKeys: Bool = PlatformURLSession.documentsProxyDictionaryKeys) -> Bool {
        if configuration.setProxyConfiguration(proxy, excludedDomains: excludedDomains(for: proxy)) { return true }
        guard documentedKeys else { return false }
        configuration.connectionProxyDictionary = proxyDictionary(for: proxy)
        return true
    }

    /// The bypassed hosts as Network's excluded domains: `.example.com` becomes `example.com`.
    static func excludedDomains(for proxy: Proxy) -> [String] {
        proxy.bypassedHosts.sorted().map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
    }

    /// `proxy` as `connectionProxyDictionary` has it, with CFNetwork's keys as their string values,
    /// which macOS documents (`kCFNetworkProxiesHTTPSEnable` is `"HTTPSEnable"`, …): a bypassed
    /// domain `.example.com` becomes the exceptions `*.example.com` and `example.com`.
    static func proxyDictionary(for proxy: Proxy) -> [AnyHashable: Any] {
        var dictionary: [AnyHashable: Any] = [:]
        switch proxy.kind {
        case .httpConnect:
            for prefix in ["HTTP", "HTTPS"] {
                dictionary["\(prefix)Enable"] = 1
                dictionary["\(prefix)Proxy"] = proxy.host
                dictionary["\(prefix)Port"] = proxy.port
            }
        case .socks5:
            dictionary["SOCKSEnable"] = 1
            dictionary["SOCKSProxy"] = proxy.host
            dictionary["SOCKSPort"] = proxy.port
        }
        if !proxy.bypassedHosts.isEmpty {
            // Exceptions are patterns; whether `*.example.com` covers `example.com` itself is not
            // documented, so a domain is given both ways.
            dictionary["ExceptionsList"] = proxy.bypassedHosts.sorted().flatMap { $0.hasPrefix(".") ? ["*" + $0, String($0.dropFirst())] : [$0] }
        }
        return dictionary
    }
}
