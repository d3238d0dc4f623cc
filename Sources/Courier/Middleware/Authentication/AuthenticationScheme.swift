import Foundation
import HTTPTypes

/// Where and how the credentials go in a request.
///
/// ```swift
/// extension HTTPField.Name {
///     static let apiToken = Self("X-API-Token")!
/// }
///
/// func authenticationSchemes(_ session: AuthenticationSession) -> [AuthenticationMiddleware] {
///     [
///         AuthenticationMiddleware(session, scheme: .bearer),                 // Authorization: Bearer <token>
///         AuthenticationMiddleware(session, scheme: .jwt),                    // Authorization: JWT <token>
///         AuthenticationMiddleware(session, scheme: .header(.apiToken)),      // X-API-Token: <token>
///         AuthenticationMiddleware(session, scheme: .query("access_token")),  // ?access_token=<token>
///     ]
/// }
/// ```
///
/// Printing a scheme never shows credentials.
public struct AuthenticationScheme: Sendable, Equatable {
    private enum Placement: Sendable, Equatable {
        /// The session's token in a header field, after a prefix.
        case header(HTTPField.Name, prefix: String)
        /// The session's token as a query parameter.
        case query(String)
        /// A complete field value of the scheme's own instead of a token (Basic credentials).
        case credentials(HTTPField.Name, value: String)
        /// Credentials that must never be sent, and why.
        case refused(HTTPField.Name, reason: String)
    }

    private let placement: Placement

    /// `Authorization: Bearer <token>` (RFC 6750).
    public static let bearer = AuthenticationScheme(placement: .header(.authorization, prefix: "Bearer "))
    /// `Authorization: JWT <token>`.
    public static let jwt = AuthenticationScheme(placement: .header(.authorization, prefix: "JWT "))

    /// The token in a header field of your choice.
    /// - Parameters:
    ///   - name: The field, e.g. `HTTPField.Name("X-API-Token")!`.
    ///   - prefix: Text before the token, e.g. `"Token "`; none by default.
    /// - Returns: The scheme.
    public static func header(_ name: HTTPField.Name, prefix: String = "") -> AuthenticationScheme {
        AuthenticationScheme(placement: .header(name, prefix: prefix))
    }

    /// The token as a query parameter (for backends that require it; tokens in URLs can end up in
    /// server logs).
    /// - Parameter name: The parameter's name.
    /// - Returns: The scheme.
    public static func query(_ name: String) -> AuthenticationScheme {
        AuthenticationScheme(placement: .query(name))
    }

    /// `Authorization: Basic <base64 of "username:password">` (RFC 7617, UTF-8): fixed credentials
    /// rather than a session's token, sent by ``BasicAuthenticationMiddleware``.
    ///
    /// RFC 7617 does not allow a `:` in the username (the server could not tell where the password
    /// starts) nor control characters in either part. Such credentials are never sent: the
    /// middleware fails every request with ``CourierError/Kind/invalidRequest`` before any
    /// network traffic, with a message saying why.
    /// - Parameters:
    ///   - username: The user-id, without `:`.
    ///   - password: The password.
    /// - Returns: The scheme.
    public static func basic(username: String, password: String) -> AuthenticationScheme {
        if username.contains(":") {
            return AuthenticationScheme(
                placement: .refused(
                    .authorization,
                    reason: "A Basic authentication username cannot contain \":\" (RFC 7617)."
                ))
        }
        if (username + password).unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return AuthenticationScheme(
                placement: .refused(
                    .authorization,
                    reason: "Basic authentication credentials cannot contain control characters (RFC 7617)."
                ))
        }
        let encoded = Data("\(username):\(password)".utf8).base64EncodedString()
        return AuthenticationScheme(placement: .credentials(.authorization, value: "Basic " + encoded))
    }

    /// Puts `token` into `request`, replacing a value already there; a scheme with credentials of
    /// its own puts those instead, and a refused one nothing (see ``refusal``).
    func apply(_ token: String, to request: inout HTTPRequest) {
        switch placement {
        case .header(let name, let prefix):
            request.headerFields[name] = prefix + token
        case .query(let name):
            let path = request.path ?? "/"
            let parameter =
                PercentEncoding.escape(name, allowing: .unreserved) + "="
                + PercentEncoding.escape(token, allowing: .unreserved)
            request.path = path + (path.contains("?") ? "&" : "?") + parameter
        case .credentials(let name, let value):
            request.headerFields[name] = value
        case .refused:
            break
        }
    }

    /// Why these credentials must not be sent, as the error a request fails with; `nil` when they
    /// may be.
    var refusal: CourierError? {
        guard case .refused(_, let reason) = placement else { return nil }
        return CourierError(.invalidRequest, message: reason)
    }

    /// The header field that carries the credentials, for redaction in logs and for dropping them
    /// on redirects to another origin.
    package var headerName: HTTPField.Name? {
        switch placement {
        case .header(let name, _), .credentials(let name, _), .refused(let name, _): name
        case .query: nil
        }
    }

    /// The query parameter that carries the token, for redaction in logs and on redirects.
    package var queryName: String? {
        if case .query(let name) = placement { return name }
        return nil
    }

    /// The field or query parameter that carries the credentials, and nothing else: what a
    /// middleware that applies this scheme declares.
    var credentialFields: CredentialFields {
        var fields = CredentialFields.none
        fields.insert(self)
        return fields
    }
}

extension AuthenticationScheme: CustomStringConvertible, CustomReflectable {
    /// Where the credentials go, never the credentials, e.g. `Authorization: Basic <redacted>`.
    public var description: String {
        switch placement {
        case .header(let name, let prefix): "\(name.rawName): \(prefix)<token>"
        case .query(let name): "?\(name)=<token>"
        case .credentials(let name, let value): "\(name.rawName): \(value.prefix { $0 != " " }) <redacted>"
        case .refused(let name, _): "\(name.rawName): <refused>"
        }
    }

    /// Only the description, so `dump` and debuggers show no credentials either.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description])
    }
}
