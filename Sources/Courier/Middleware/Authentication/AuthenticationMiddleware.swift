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

    /// The field or query parameter of ``scheme``.
    public var credentialFields: CredentialFields { scheme.credentialFields }

    /// Adds the token, and on a 401 from this origin renews it once and replays the request.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body.
    ///   - context: The call's context; its ``MiddlewareContext/requiresAuthentication`` decides.
    ///   - next: The rest of the chain.
    /// - Returns: What `next` returned, for the replay when there was one.
    /// - Throws: ``CourierError/Kind/cancelled`` or ``CourierError/Kind/timedOut`` while waiting for
    ///   a renewal, or what `next` throws.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        guard context.requiresAuthentication, let credentials = try await session.credentials(timeout: context.timeout, clock: context.elapsedClock, now: context.currentDate()) else {
            return try await next(request, body, context)
        }
        var authorized = request
        scheme.apply(credentials.token, to: &authorized)
        let result = try await next(authorized, body, context)
        // A 401 from another origin, reached by a redirect, says nothing about this origin's
        // token (which was not sent there).
        guard result.status == .unauthorized, body?.iterationBehavior != .single, result.isFrom(context.origin) else {
            return result
        }
        guard let renewed = try await session.renewed(after: credentials.stamp, timeout: context.timeout, clock: context.elapsedClock) else {
            return result
        }
        var replay = request
        scheme.apply(renewed.token, to: &replay)
        return try await next(replay, body, context)
    }
}
