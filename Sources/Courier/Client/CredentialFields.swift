import HTTPTypes

/// The header fields and query parameters that carry credentials: a redirect to another origin
/// drops the fields, and logs hide the values of both.
///
/// ```swift
/// let api = Client(baseURL: "https://api.example.com") {
///     $0.credentialFields.headerNames.insert(HTTPField.Name("X-Tenant-Secret")!)
/// }
/// ```
public struct CredentialFields: Sendable, Hashable {
    /// Header fields that carry credentials.
    public var headerNames: Set<HTTPField.Name>
    /// Query parameters that carry credentials (compared ignoring case).
    public var queryNames: Set<String>

    /// `Authorization`, `Proxy-Authorization`, `Cookie`, and the API-key and token fields in wide
    /// use: `X-API-Key`, `X-API-Token`, `X-Auth-Token`, `X-Access-Token`, `X-Access-Key`, `X-Auth`,
    /// `X-Session-Token`, `X-CSRF-Token`, `X-XSRF-Token`, `X-Amz-Security-Token`,
    /// `X-Goog-API-Key`, `Api-Key`; the query parameters `access_token`, `api_key`, `apikey`,
    /// `key`, `token`, `sig`, `signature`.
    public static let `default` = CredentialFields(
        headerNames: Set(
            [HTTPField.Name.authorization, .proxyAuthorization, .cookie]
                + [
                    "X-API-Key", "X-API-Token", "X-Auth-Token", "X-Access-Token", "X-Access-Key", "X-Auth",
                    "X-Session-Token", "X-CSRF-Token", "X-XSRF-Token", "X-Amz-Security-Token", "X-Goog-API-Key",
                    "Api-Key",
                ].compactMap { HTTPField.Name($0) }
        ),
        queryNames: ["access_token", "api_key", "apikey", "key", "token", "sig", "signature"]
    )

    /// No fields at all: what a middleware without credentials declares.
    public static let none = CredentialFields(headerNames: [])

    /// Creates a set of credential fields.
    /// - Parameters:
    ///   - headerNames: Header fields that carry credentials.
    ///   - queryNames: Query parameters that carry credentials.
    public init(headerNames: Set<HTTPField.Name>, queryNames: Set<String> = []) {
        self.headerNames = headerNames
        self.queryNames = Set(queryNames.map { $0.lowercased() })
    }

    /// Adds the field or query parameter `scheme` puts its token in.
    /// - Parameter scheme: An authentication scheme.
    public mutating func insert(_ scheme: AuthenticationScheme) {
        if let name = scheme.headerName { headerNames.insert(name) }
        if let name = scheme.queryName { queryNames.insert(name.lowercased()) }
    }

    /// Adds every field and query parameter of `other`.
    /// - Parameter other: More credential fields.
    public mutating func formUnion(_ other: CredentialFields) {
        headerNames.formUnion(other.headerNames)
        queryNames.formUnion(other.queryNames)
    }

    /// Whether a query parameter with this name carries a credential.
    func isCredential(queryName name: String) -> Bool {
        queryNames.contains(name.lowercased())
    }
}
