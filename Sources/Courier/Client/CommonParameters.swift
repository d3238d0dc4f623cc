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
/// An endpoint's own value wins over a common one of the same name.
public struct CommonParameters: Sendable, Hashable {
    /// Added to every request's query, after the endpoint's own items.
    public var query: QueryParameters = [:]
    /// Added to every request's header fields; this is also where default headers
    /// (`User-Agent`, `Accept-Language`) go.
    public var headerFields: HTTPFields = [:]
    /// Added to every JSON object body (requests without a JSON object body are unchanged).
    public var bodyFields: [String: JSONValue] = [:]

    /// Creates empty common parameters.
    public init() {}
}
