import Foundation
import HTTPTypes

/// A request kept to be sent later, perhaps by another process: what the endpoint itself says
/// (method, path, its own query and header fields, its encoded body), without the client's common
/// query and header fields and without credentials. ``Client/exchange(_:)`` adds those when it
/// sends it, from the configuration and middleware of that moment.
///
/// The body is kept as the bytes ``Client/send(_:)`` would have sent (common JSON body fields
/// included): a request sent again under one `Idempotency-Key` must carry the same bytes.
package struct DeferredRequest: Sendable, Hashable {
    /// The HTTP method.
    package var method: HTTPRequest.Method
    /// The name for logs, metrics and traces: the endpoint's own, or its method and path template.
    package var name: String
    /// The path template, without values: `friends/{}`.
    package var pathTemplate: String
    /// The path below the base URL, escaped.
    package var path: String
    /// The endpoint's own query, encoded, without the `?`; credential parameters removed.
    package var query: String
    /// The names of the endpoint's own query parameters: a common one of the same name is not added.
    package var queryNames: [String]
    /// The endpoint's own header fields and its body's `Content-Type`; credential fields removed.
    package var headerFields: HTTPFields
    /// The encoded body: bytes, a file, or a multipart form (which the offline queue writes to a
    /// file of its own).
    package var payload: RequestPayload?
    /// The encoded body when it is held in memory.
    package var body: Data? { payload?.bytes }
    /// Whether the call carries credentials added by the client's middleware.
    package var requiresAuthentication: Bool
    /// The endpoint's own timeout.
    package var timeout: Duration?
    /// The endpoint's own base URL, instead of the client's.
    package var baseURL: BaseURL?

    /// Creates a deferred request from its stored parts.
    package init(
        method: HTTPRequest.Method,
        name: String,
        pathTemplate: String,
        path: String,
        query: String,
        queryNames: [String],
        headerFields: HTTPFields,
        payload: RequestPayload?,
        requiresAuthentication: Bool,
        timeout: Duration?,
        baseURL: BaseURL?
    ) {
        self.method = method
        self.name = name
        self.pathTemplate = pathTemplate
        self.path = path
        self.query = query
        self.queryNames = queryNames
        self.headerFields = headerFields
        self.payload = payload
        self.requiresAuthentication = requiresAuthentication
        self.timeout = timeout
        self.baseURL = baseURL
    }
}
