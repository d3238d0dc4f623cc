import Foundation

/// One cookie a server set, with the scope RFC 6265 gives it.
///
/// Its `Mirror` (what `dump(_:)` and reflection-based loggers print) shows the name and scope,
/// never the ``value``.
public struct Cookie: Sendable, Hashable, CustomReflectable {
    /// The cookie's name.
    public var name: String
    /// The cookie's value, as the server sent it.
    public var value: String
    /// The host (``isHostOnly``) or domain it is sent to, lowercased, without a leading dot.
    public var domain: String
    /// Whether it goes only to exactly ``domain`` (no `Domain` attribute was given).
    public var isHostOnly: Bool
    /// The path prefix it is sent under.
    public var path: String
    /// When it expires; `nil` for a session cookie, kept as long as the jar.
    public var expires: Date?
    /// Whether it is sent only over https.
    public var isSecure: Bool
    /// Whether the server marked it `HttpOnly` (kept for completeness; Courier has no scripts).
    public var isHTTPOnly: Bool
    /// When it was first set; older cookies come first among equals.
    var created: Date

    /// The name and scope, with the value as `<redacted>`: a cookie is often a session's credential.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "value": "<redacted>", "domain": domain, "isHostOnly": isHostOnly, "path": path,
                "expires": expires as Any, "isSecure": isSecure, "isHTTPOnly": isHTTPOnly,
            ],
            displayStyle: .struct
        )
    }

    /// Whether it has expired at `now`.
    func hasExpired(at now: Date) -> Bool {
        expires.map { $0 <= now } ?? false
    }

    /// Whether it goes with a request to `host`, `path` over `scheme` at `now` (RFC 6265 §5.4).
    func matches(host: String, path requestPath: String, secure: Bool, at now: Date) -> Bool {
        guard !hasExpired(at: now), !isSecure || secure else { return false }
        let domainMatches = isHostOnly ? host == domain : Self.domain(host, matches: domain)
        return domainMatches && Self.path(requestPath, matches: path)
    }

    /// RFC 6265 §5.1.3: the host is the domain, or a subdomain of it and not an IP address.
    static func domain(_ host: String, matches domain: String) -> Bool {
        if host == domain { return true }
        return host.hasSuffix("." + domain) && !isIPAddress(host)
    }

    /// RFC 6265 §5.1.4: the cookie path is the request path, or a prefix of it ending at a `/`.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    /// RFC 6265 §5.1.4: the directory of the request path, the default `Path` of a cookie.
    static func defaultPath(of requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let lastSlash = requestPath.lastIndex(of: "/"), lastSlash != requestPath.startIndex
        else { return "/" }
        return String(requestPath[..<lastSlash])
    }

    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
    }
}
