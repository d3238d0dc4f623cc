import Foundation

/// Reads a `Set-Cookie` field value into a ``Cookie`` as RFC 6265 §5.2–5.3 says, refusing what a
/// user agent must ignore.
enum SetCookieParser {
    /// The longest name plus value kept, as browsers keep it.
    static let largestCookie = 4096

    /// The cookie `value` sets for a response from `host` at `path` over `secure` (https), or
    /// `nil` when it must be ignored (no name, too large, a `Domain` that does not cover the host,
    /// `Secure` from plain http).
    static func cookie(from value: String, host: String, path requestPath: String, secure: Bool, now: Date) -> Cookie? {
        guard value.utf8.count <= largestCookie * 2 else { return nil }
        var parts = value.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let pair = parts.next(), let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let cookieValue = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count + cookieValue.utf8.count <= largestCookie,
            !(name + cookieValue).contains(where: { $0.isNewline || $0 == "\0" })
        else { return nil }

        var cookie = Cookie(
            name: name,
            value: cookieValue,
            domain: host,
            isHostOnly: true,
            path: Cookie.defaultPath(of: requestPath),
            expires: nil,
            isSecure: false,
            isHTTPOnly: false,
            created: now
        )
        var maxAge: Int?
        var expires: Date?
        while let attribute = parts.next() {
            let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let attributeValue = pieces.count == 2 ? pieces[1] : ""
            switch pieces.first?.lowercased() {
            case "expires": expires = HTTPDate.parse(attributeValue)
            case "max-age": maxAge = Self.maxAge(attributeValue) ?? maxAge
            case "domain":
                var domain = attributeValue.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { break }
                // A domain the host is not in, or a bare top-level name, is refused (§5.3 step 6).
                guard Cookie.domain(host, matches: domain), domain.contains(".") || domain == host else { return nil }
                cookie.domain = domain
                cookie.isHostOnly = false
            case "path":
                cookie.path = attributeValue.hasPrefix("/") ? attributeValue : Cookie.defaultPath(of: requestPath)
            case "secure": cookie.isSecure = true
            case "httponly": cookie.isHTTPOnly = true
            default: break
            }
        }
        // A secure cookie from plain http is refused (RFC 6265bis §5.7).
        if cookie.isSecure && !secure { return nil }
        if let maxAge {
            cookie.expires =
                maxAge <= 0
                ? .distantPast
                : now.addingTimeInterval(TimeInterval(min(maxAge, 400 * 24 * 3600)))
        } else if let expires {
            cookie.expires = expires
        }
        return cookie
    }

    /// A `Max-Age` value (RFC 6265 §5.2.2): an optional `-` and digits, nothing else, or `nil` so
    /// that the attribute is ignored. Any number of digits is read; past `Int` it saturates.
    static func maxAge(_ text: String) -> Int? {
        let negative = text.hasPrefix("-")
        let digits = negative ? text.utf8.dropFirst() : text.utf8[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return Int(text) ?? (negative ? .min : .max)
    }
}
