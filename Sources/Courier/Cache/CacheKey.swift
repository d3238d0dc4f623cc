import Foundation
import HTTPTypes

/// What a stored response is found by: the URL it answers, in full (scheme, host, port, path and
/// query), and the identity of whoever asked: the credentials the request carried.
///
/// Responses to requests with different credentials (another token, another user's cookies, or
/// none after signing out) are kept apart and never served to each other. On disk only hashes of
/// a key appear: no URL, query parameter or credential is readable there.
struct CacheKey: Sendable, Hashable {
    /// The full URL: scheme, authority, path and query.
    var url: String
    /// A hash of the credential fields and cookies the request carried; empty when it carried none.
    var identity: String

    /// The key of `request` to `origin`, its identity from the credential fields it carries
    /// (`credentialFields`) and the `cookies` the client adds for it.
    init(_ request: HTTPRequest, origin: URL, credentialFields: CredentialFields, cookies: String?) {
        url = Self.url(of: request, at: origin)
        var credentials: [String] = []
        for name in credentialFields.headerNames.sorted(by: { $0.canonicalName < $1.canonicalName }) {
            for value in request.headerFields[values: name] { credentials.append("\(name.canonicalName):\(value)") }
        }
        if let cookies, !cookies.isEmpty { credentials.append("cookie-jar:\(cookies)") }
        identity = credentials.isEmpty ? "" : Self.hash(credentials.joined(separator: "\n"))
    }

    /// The key of `url` for `identity`.
    init(url: String, identity: String = "") {
        self.url = url
        self.identity = identity
    }

    /// The full URL of `request` below `origin`, scheme and host lowercased.
    static func url(of request: HTTPRequest, at origin: URL) -> String {
        "\(origin.absoluteString.lowercased())\(request.path ?? "/")"
    }

    /// The start of the names of the key's responses on disk: hashes of its URL and identity.
    var fileStem: String {
        Self.hash(url) + "." + Self.hash(identity).prefix(12)
    }

    /// The hex SHA-256 of `text`, first 128 bits.
    static func hash(_ text: String) -> String {
        SHA256.hash(Array(text.utf8)).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
