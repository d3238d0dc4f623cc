import HTTPTypes
import OpenAPIRuntime

/// Sends the same username and password with every request that wants authentication: HTTP
/// Basic authentication (RFC 7617), for backends without tokens such as internal services,
/// package registries and admin APIs.
///
/// ```swift
/// let registry = Client(baseURL: "https://registry.example.com") {
///     $0.middleware = [BasicAuthenticationMiddleware(username: "aladdin", password: "open sesame")]
/// }
/// ```
///
/// There is no token store and no refresh: a 401 is delivered as
/// ``CourierError/Kind/unauthorized``. Requests marked ``Request/withoutAuthentication()`` go
/// without the credentials. Credentials RFC 7617 does not allow (a `:` in the username, control
/// characters) fail every request with ``CourierError/Kind/invalidRequest`` before any network
/// traffic. Basic credentials are encoded, not encrypted: use HTTPS.
public struct BasicAuthenticationMiddleware: Middleware {
    /// Where the credentials go (`Authorization`); printing it shows no credentials.
    public let scheme: AuthenticationScheme

    /// Creates the middleware.
    /// - Parameters:
    ///   - username: The user-id, without `:`.
    ///   - password: The password.
    public init(username: String, password: String) {
        scheme = .basic(username: username, password: password)
    }

    /// The `Authorization` field.
    public var credentialFields: CredentialFields { scheme.credentialFields }

    /// Adds the `Authorization` field and sends the request.
    /// - Parameters:
    ///   - request: The request, sent on with the `Authorization` field set.
    ///   - body: Its body, passed on as it is.
    ///   - context: Says whether the call wants credentials at all (``Request/withoutAuthentication()``).
    ///   - next: Receives the request with the credentials.
    /// - Returns: What `next` returned; a 401 is the caller's to see.
    /// - Throws: ``CourierError/Kind/invalidRequest`` for credentials RFC 7617 does not allow, or
    ///   what `next` throws.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        guard context.requiresAuthentication else { return try await next(request, body, context) }
        if let refusal = scheme.refusal { throw refusal.with(request: request) }
        var authorized = request
        scheme.apply("", to: &authorized)
        return try await next(authorized, body, context)
    }
}
