import Foundation
import HTTPTypes

/// One call to a backend and the type it returns: method, path, query, body, headers, and how the
/// response is decoded.
///
/// `Response` decides how the body is read: a `Decodable` type (or ``JSONValue``) is decoded from
/// JSON, `Void` ignores the body (204 and empty bodies are fine), `Data` returns the bytes.
///
/// ```swift
/// let friends = Request<[User]>(.get, "friends", query: ["user_id": user.id])
/// let unfriend = Request<Void>(.delete, "friends/\(friendID)", query: ["user_id": user.id])
/// let avatar = Request<Data>(.get, "users/\(user.id)/avatar")
/// let login = Request<Token>(.post, "authenticate", body: .json(credentials))
///     .requiring(!email.isEmpty && !password.isEmpty, "Email and Password Required")
/// ```
public struct Request<Response: Sendable>: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path below the base URL; interpolated values are escaped.
    public var path: Path
    /// Query parameters, in order; the client's common query parameters are added after them.
    public var query: QueryParameters
    /// Header fields; they take precedence over the client's default and common header fields.
    public var headerFields: HTTPFields
    /// The body, if any.
    public var body: RequestBody?
    /// A base URL for this call only, instead of the client's.
    public var baseURL: BaseURL?
    /// A timeout for this call only, instead of the client's.
    public var timeout: Duration?
    /// A JSON decoder for this call only, instead of the client's.
    public var decoder: JSONDecoder?
    /// The JSON decoder implementation for this call only, instead of the client's
    /// ``Configuration/jsonDecoderImplementation``.
    public var jsonDecoderImplementation: JSONDecoderImplementation?
    /// A JSON encoder for this call only, instead of the client's.
    public var encoder: JSONEncoder?
    /// A name for logs, metrics and the transport (the OpenAPI operation ID); `"GET movie/popular"`
    /// style when not set.
    public var name: String?
    /// Whether the call carries credentials added by ``AuthenticationMiddleware``; `true` unless
    /// turned off with ``withoutAuthentication()``.
    public var requiresAuthentication = true
    /// How urgent the call is when the client limits calls per host
    /// (``Configuration/maximumCallsPerHost``); ``RequestPriority/userInitiated`` unless set with
    /// ``priority(_:)``.
    public var priority = RequestPriority.userInitiated
    /// Why this request may not be sent, when a local check failed.
    var validationFailure: String?
    let decoding: ResponseDecoding<Response>

    init(
        method: HTTPRequest.Method,
        path: Path,
        query: QueryParameters,
        headerFields: HTTPFields,
        body: RequestBody?,
        decoding: ResponseDecoding<Response>
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headerFields
        self.body = body
        self.decoding = decoding
    }

    /// Refuses to send the request, with ``CourierError/Kind/invalidRequest`` and `message`, unless
    /// `condition` holds. The check runs when the request is sent, before any network traffic.
    /// - Parameters:
    ///   - condition: What must be true, e.g. `!email.isEmpty`.
    ///   - message: What the user is told otherwise, e.g. `"Email and Password Required"`.
    /// - Returns: The request, marked invalid if `condition` is false.
    public func requiring(_ condition: Bool, _ message: String) -> Request {
        var copy = self
        if !condition && copy.validationFailure == nil { copy.validationFailure = message }
        return copy
    }

    /// The same request with a different timeout.
    /// - Parameter timeout: How long the whole exchange may take.
    public func timeout(_ timeout: Duration) -> Request {
        var copy = self
        copy.timeout = timeout
        return copy
    }

    /// The same request read with another JSON decoder implementation.
    ///
    /// ```swift
    /// let legacy = Request<Report>(.get, "reports/1").decoded(with: .foundation)
    /// ```
    /// - Parameter implementation: ``JSONDecoderImplementation/foundation`` for `JSONDecoder`.
    public func decoded(with implementation: JSONDecoderImplementation) -> Request {
        var copy = self
        copy.jsonDecoderImplementation = implementation
        return copy
    }

    /// The same request without credentials: for login, sign-up and other calls made before there
    /// is a token. ``AuthenticationMiddleware`` neither adds a token nor refreshes on 401.
    public func withoutAuthentication() -> Request {
        var copy = self
        copy.requiresAuthentication = false
        return copy
    }

    /// The same request with another priority: under a per-host limit
    /// (``Configuration/maximumCallsPerHost``), waiting calls start in priority order, and new
    /// background work waits while user-initiated work is queued.
    ///
    /// ```swift
    /// let poster = Request<Data>(.get, "posters/\(id).jpg").priority(.prefetch)
    /// ```
    /// - Parameter priority: The call's priority.
    /// - Returns: The request with that priority.
    public func priority(_ priority: RequestPriority) -> Request {
        var copy = self
        copy.priority = priority
        return copy
    }

    /// The same request with a name for logs, metrics, traces and the transport.
    /// - Parameter name: E.g. `"listFriends"`.
    public func named(_ name: String) -> Request {
        var copy = self
        copy.name = name
        return copy
    }

    /// The same request with one more header field (replacing any field of that name).
    ///
    /// A value containing CR, LF or NUL could smuggle another header or request onto the wire; the
    /// call then fails with ``CourierError/Kind/invalidRequest`` before anything is sent.
    /// - Parameters:
    ///   - name: The field name, e.g. `.accept`.
    ///   - value: The value.
    public func header(_ name: HTTPField.Name, _ value: String) -> Request {
        var copy = self
        if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }), copy.validationFailure == nil {
            copy.validationFailure = "The value of the header field \(name) contains a line break or NUL."
        }
        copy.headerFields[name] = value
        return copy
    }

    /// The same call with its decoded response transformed, e.g. to unwrap an envelope.
    /// - Parameter transform: Runs after decoding; an error it throws becomes a decoding failure.
    /// - Returns: A request returning the transformed value.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Response) throws -> T) -> Request<T> {
        var mapped = Request<T>(
            method: method,
            path: path,
            query: query,
            headerFields: headerFields,
            body: body,
            decoding: decoding.map(transform)
        )
        mapped.baseURL = baseURL
        mapped.timeout = timeout
        mapped.decoder = decoder
        mapped.jsonDecoderImplementation = jsonDecoderImplementation
        mapped.encoder = encoder
        mapped.name = name
        mapped.requiresAuthentication = requiresAuthentication
        mapped.validationFailure = validationFailure
        return mapped
    }
}

extension Request where Response: Decodable {
    /// A call whose JSON response decodes as `Response`.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path below the base URL.
    ///   - query: Query parameters.
    ///   - body: The body, if any.
    ///   - headerFields: Header fields for this call.
    public init(
        _ method: HTTPRequest.Method,
        _ path: Path,
        query: QueryParameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:]
    ) {
        self.init(method: method, path: path, query: query, headerFields: headerFields, body: body, decoding: .json)
    }
}

extension Request where Response == Void {
    /// A call whose response body, if any, is ignored (e.g. `204 No Content`).
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path below the base URL.
    ///   - query: Query parameters.
    ///   - body: The body, if any.
    ///   - headerFields: Header fields for this call.
    public init(
        _ method: HTTPRequest.Method,
        _ path: Path,
        query: QueryParameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:]
    ) {
        self.init(
            method: method,
            path: path,
            query: query,
            headerFields: headerFields,
            body: body,
            decoding: .ignoringBody
        )
    }
}

extension Request where Response == Data {
    /// A call that returns the response body's bytes as they are.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path below the base URL.
    ///   - query: Query parameters.
    ///   - body: The body, if any.
    ///   - headerFields: Header fields for this call.
    public init(
        _ method: HTTPRequest.Method,
        _ path: Path,
        query: QueryParameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:]
    ) {
        self.init(method: method, path: path, query: query, headerFields: headerFields, body: body, decoding: .rawBody)
    }
}
