import HTTPTypes
import OpenAPIRuntime

/// Adds the ``AuthenticationSession``'s access token to every request that wants one, and on a
/// 401 renews the token once (a single refresh however many requests were refused together) and
/// replays the request with the new token.
///
/// A replayed request that is refused again, or one refused after the refresh failed, gets its
/// 401 delivered (``CourierError/Kind/unauthorized``): there is never a refresh loop. Nor does a
/// 401 from another origin, reached by a redirect, refresh this origin's token. Requests
/// marked ``Request/withoutAuthentication()`` (login, refresh) pass through untouched.
///
/// ```swift
/// let social = Client(baseURL: socialURL) {
///     $0.middleware = [AuthenticationMiddleware(session, scheme: .jwt)]
/// }
/// ```
public struct AuthenticationMiddleware: Middleware {
    /// The tokens.
    public let session: AuthenticationSession
    /// Where the token goes.
    public let scheme: AuthenticationScheme

    /// Creates the middleware.
    /// - Parameters:
    ///   - session: The session holding the tokens; share one between clients of the same identity.
    ///   - scheme: Where the token goes; `Authorization: Bearer` by default.
    public init(_ session: AuthenticationSession, scheme: AuthenticationScheme = .bearer) {
        self.session = session
        self.scheme = scheme
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard context.requiresAuthentication, let credentials = try await session.credentials(timeout: context.timeout) else {
            return try await next(request, body, context)
        }
        var authorized = request
        scheme.apply(credentials.token, to: &authorized)
        let (response, responseBody) = try await next(authorized, body, context)
        guard response.status == .unauthorized, body?.iterationBehavior != .single else {
            return (response, responseBody)
        }
        // A 401 from another origin, reached by a redirect, says nothing about this origin's
        // token (which was not sent there).
        if let answered = context.record?.origin, !Redirect.sameOrigin(answered, context.origin) {
            return (response, responseBody)
        }
        guard let renewed = try await session.renewed(after: credentials.stamp, timeout: context.timeout) else {
            return (response, responseBody)
        }
        var replay = request
        scheme.apply(renewed.token, to: &replay)
        return try await next(replay, body, context)
    }
}
