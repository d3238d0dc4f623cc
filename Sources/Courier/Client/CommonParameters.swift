import Foundation
import HTTPTypes

/// Values every request of a client carries (SPEC A8): an access token, the API version, the
/// device type, an app id. Each goes where the backend expects it.
///
/// ```swift
/// let auth = Client(backend: .auth, environment: env) {
///     $0.commonParameters.headerFields[.acceptLanguage] = "fr"          // a header
///     $0.commonParameters.query["device_type"] = "ios"                  // a query item
///     $0.commonParameters.bodyFields["app_id"] = "com.example.app"      // a JSON body field
/// }
/// ```
///
/// An endpoint's own value wins over a common one of the same name. Its `Mirror` (what `dump(_:)`
/// and reflection-based loggers print) hides the values ``Redaction/default`` hides in logs: an
/// API key, a token.
public struct CommonParameters: Sendable, Hashable, CustomReflectable {
    /// Added to every request's query, after the endpoint's own items.
    public var query: QueryParameters = [:]
    /// Added to every request's header fields; this is also where default headers
    /// (`User-Agent`, `Accept-Language`) go.
    public var headerFields: HTTPFields = [:]
    /// Added to every JSON object body (requests without a JSON object body are unchanged).
    public var bodyFields: [String: JSONValue] = [:]

    /// Creates empty common parameters.
    public init() {}

    /// The names and values, with the values of credential and secret-looking fields as
    /// `<redacted>`.
    public var customMirror: Mirror {
        let redaction = Redaction.default.hiding(.default)
        let query = self.query.items.map { item in
            "\(item.name)=" + (redaction.isSecret(fieldNamed: item.name) ? Redaction.placeholder : "\(item.value)")
        }
        let headers = redaction.redact(headerFields).map { "\($0.name): \($0.value)" }
        let body = (try? JSONEncoder().encode(bodyFields)).map { redaction.redact(body: $0, contentType: "application/json") } ?? ""
        return Mirror(self, children: ["query": query, "headerFields": headers, "bodyFields": body], displayStyle: .struct)
    }
}
