import Foundation
import HTTPTypes

/// A request ready for the transport: what ``Client/prepare(_:)`` builds from an endpoint without
/// touching the network, so that tests can check exactly what would be sent.
///
/// ```swift
/// let prepared = try client.prepare(MovieAPI.popular(page: 2))
/// #expect(prepared.request.path == "/3/movie/popular?page=2&api_key=KEY")
/// ```
public struct PreparedRequest: Sendable {
    /// Method, scheme, authority, path with query, and header fields.
    public var request: HTTPRequest
    /// The encoded body, if any: bytes, a file, or a multipart form whose files are read from disk
    /// as it is sent.
    public var payload: RequestPayload?
    /// The encoded body when it is held in memory: JSON, a form, bytes; `nil` for a file or a
    /// multipart form (see ``payload``).
    public var body: Data? { payload?.bytes }
    /// The file sent as the body, when it is one.
    @available(*, deprecated, message: "The body is one value: read `payload`.")
    public var bodyFile: URL? { payload?.file }
    /// How long the exchange may take.
    public var timeout: Duration
    /// The operation name given to the transport and to logs.
    public var name: String
    /// Whether the call carries credentials (``Request/withoutAuthentication()`` turns it off).
    public var requiresAuthentication = true
    /// How urgent the call is under a per-host limit (``Configuration/maximumCallsPerHost``).
    public var priority = RequestPriority.userInitiated
    /// Scheme, host and port: the base URL the transport resolves `request.path` against.
    var origin: URL

    /// The full URL, for display.
    public var url: URL? {
        URL(string: "\(request.scheme ?? "http")://\(request.authority ?? "")\(request.path ?? "/")")
    }
}
