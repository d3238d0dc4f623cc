import HTTPTypes

/// Where and how the access token goes in a request.
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
public struct AuthenticationScheme: Sendable, Equatable {
    private enum Placement: Sendable, Equatable {
        case header(HTTPField.Name, prefix: String)
        case query(String)
    }

    private let placement: Placement

    /// `Authorization: Bearer <token>` (RFC 6750).
    public static let bearer = AuthenticationScheme(placement: .header(.authorization, prefix: "Bearer "))
    /// `Authorization: JWT <token>`.
    public static let jwt = AuthenticationScheme(placement: .header(.authorization, prefix: "JWT "))

    /// The token in a header field of your choice.
    /// - Parameters:
    ///   - name: The field.
    ///   - prefix: Text before the token, e.g. `"Token "`; none by default.
    public static func header(_ name: HTTPField.Name, prefix: String = "") -> AuthenticationScheme {
        AuthenticationScheme(placement: .header(name, prefix: prefix))
    }

    /// The token as a query parameter (for backends that require it; tokens in URLs can end up in
    /// server logs).
    /// - Parameter name: The parameter's name.
    public static func query(_ name: String) -> AuthenticationScheme {
        AuthenticationScheme(placement: .query(name))
    }

    /// Puts `token` into `request`, replacing a value already there.
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
        }
    }

    /// The header field that carries the token, for redaction in logs.
    var headerName: HTTPField.Name? {
        if case .header(let name, _) = placement { return name }
        return nil
    }

    /// The query parameter that carries the token, for redaction in logs.
    var queryName: String? {
        if case .query(let name) = placement { return name }
        return nil
    }
}
