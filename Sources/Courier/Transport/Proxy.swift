/// A proxy a transport sends every request through, except to the hosts it bypasses.
///
/// ```swift
/// let proxy = Proxy.http(host: "proxy.corp.example", port: 3128, credentials: ProxyCredentials(username: "ada", password: secret))
///     .bypassing(["localhost", ".internal.example"])
/// let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: proxy)
/// ```
/// An HTTP proxy is asked for a tunnel with `CONNECT` for every origin, `http` and `https`
/// alike, so it sees only the origin's host and port; for an `https` origin the TLS session runs
/// through the tunnel, and the proxy never reads the request. `Proxy-Authorization` goes to the
/// proxy alone, never to the origin. A transport that cannot apply a proxy as given refuses it
/// when it is created, with an error that names the missing piece.
///
/// Courier reads no proxy settings from the environment (`HTTPS_PROXY`, `NO_PROXY`): a transport
/// uses the proxy it is given, or none.
public struct Proxy: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// How the proxy is spoken to.
    public enum Kind: Sendable, Hashable {
        /// HTTP `CONNECT` (RFC 9110 §9.3.6), with Basic credentials when given.
        case httpConnect
        /// SOCKS5 (RFC 1928), without authentication.
        case socks5
    }

    /// How the proxy is spoken to.
    public var kind: Kind
    /// The proxy's host name or address.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The credentials an HTTP `CONNECT` proxy asks for, if any (a SOCKS5 proxy takes none).
    public var credentials: ProxyCredentials?
    /// Hosts reached directly, compared with the origin's host (never its port or scheme), case
    /// ignored: a name or address (`localhost`, `10.0.0.7`, `::1`) matches exactly itself; a
    /// name with a leading dot (`.internal.example`) matches `internal.example` and every name
    /// ending in `.internal.example`. There are no wildcards, address ranges or ports.
    public var bypassedHosts: Set<String>

    /// An HTTP `CONNECT` proxy.
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    ///   - credentials: Basic credentials, sent to the proxy alone.
    /// - Returns: The proxy.
    public static func http(host: String, port: Int, credentials: ProxyCredentials? = nil) -> Proxy {
        Proxy(kind: .httpConnect, host: host, port: port, credentials: credentials, bypassedHosts: [])
    }

    /// A SOCKS5 proxy, spoken to without authentication (method "no authentication required",
    /// RFC 1928 §3).
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    /// - Returns: The proxy.
    public static func socks5(host: String, port: Int) -> Proxy {
        Proxy(kind: .socks5, host: host, port: port, credentials: nil, bypassedHosts: [])
    }

    /// A SOCKS5 proxy with a username and password (RFC 1929), which no transport can send:
    /// SwiftNIO's SOCKS client offers no authentication method, and URLSession refuses proxy
    /// credentials. Every transport refuses this proxy when it is created.
    /// - Parameters:
    ///   - host: The proxy's host.
    ///   - port: The proxy's port.
    ///   - credentials: Username and password.
    /// - Returns: The proxy.
    @available(*, deprecated, message: "No transport can send SOCKS5 credentials: use socks5(host:port:) with a proxy that needs none, or an HTTP CONNECT proxy with credentials.")
    public static func socks5(host: String, port: Int, credentials: ProxyCredentials?) -> Proxy {
        Proxy(kind: .socks5, host: host, port: port, credentials: credentials, bypassedHosts: [])
    }

    /// This proxy, with `hosts` reached directly.
    /// - Parameter hosts: Host names, or domains with a leading dot.
    /// - Returns: The proxy.
    public func bypassing(_ hosts: Set<String>) -> Proxy {
        var proxy = self
        proxy.bypassedHosts.formUnion(hosts.map { $0.lowercased() })
        return proxy
    }

    /// Whether requests to `host` skip the proxy.
    /// - Parameter host: The origin's host.
    /// - Returns: `true` when a bypassed name or domain matches it.
    public func bypasses(_ host: String) -> Bool {
        let host = host.lowercased()
        return bypassedHosts.contains { entry in
            entry.hasPrefix(".") ? host.hasSuffix(entry) || host == entry.dropFirst() : host == entry
        }
    }

    /// Refuses a proxy no transport can reach: an empty host, or a port outside 1...65535.
    /// - Throws: ``CourierError/Kind/invalidRequest``, naming the proxy.
    package func checkAddress() throws(CourierError) {
        guard !host.isEmpty, (1...65_535).contains(port) else {
            throw CourierError(.invalidRequest, message: "The proxy \(self) needs a host and a port from 1 to 65535.")
        }
    }

    /// `kind host:port`, with the username and never the password.
    public var description: String {
        let scheme = kind == .socks5 ? "socks5" : "http"
        let user = credentials.map { "\($0.username)@" } ?? ""
        return "\(scheme)://\(user)\(host):\(port)"
    }

    /// The kind, host, port, bypassed hosts and the credentials as ``ProxyCredentials`` shows
    /// them, so `dump(_:)` shows no password.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["kind": kind, "host": host, "port": port, "credentials": credentials as Any, "bypassedHosts": bypassedHosts.sorted()],
            displayStyle: .struct
        )
    }
}

/// A username and password for a proxy. Its descriptions and its `Mirror` never show the password.
public struct ProxyCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The username.
    public var username: String
    /// The password.
    public var password: String

    /// Creates credentials.
    /// - Parameters:
    ///   - username: The username.
    ///   - password: The password.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `username:***`.
    public var description: String { "\(username):***" }
    /// `username:***`.
    public var debugDescription: String { description }

    /// The username, and the password as `<redacted>`, so `dump(_:)` shows no password.
    public var customMirror: Mirror {
        Mirror(self, children: ["username": username, "password": "<redacted>"], displayStyle: .struct)
    }
}
