import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One step between a ``Client`` and its transport: it sees every request on the way out and every
/// response (or error) on the way back, and may change, delay, repeat or refuse them.
///
/// A client's middleware is the ordered list ``Configuration/middleware``. **The first in the list
/// is the outermost**: it sees the request first and the response last; responses travel back in
/// reverse order. Put policies that decide *whether* to send before those that decide *how*:
///
/// ```swift
/// $0.middleware = [
///     ReachabilityMiddleware(),            // fail fast when offline
///     AuthenticationMiddleware(session),   // add the token, refresh once on 401
///     RateLimitMiddleware(.perHost(5, per: .seconds(1))),
///     RetryMiddleware(.exponential()),     // each attempt passes through the steps below
///     LoggingMiddleware(logger: logger),   // one line per attempt
/// ]
/// ```
///
/// What `next` returns is a ``MiddlewareResponse``: the response, its body, and the facts of how it
/// was obtained (the URL after redirects, the attempts made, its source), which travel back
/// through every middleware with it.
///
/// Response bodies reaching middleware are already read into memory (up to the size limit), so a
/// middleware may read them without consuming them for the client; request bodies built by
/// Courier can be sent more than once.
///
/// A middleware in a few lines:
///
/// ```swift
/// extension HTTPField.Name {
///     static let xRequestID = Self("X-Request-ID")!
/// }
///
/// struct RequestIDMiddleware: Middleware {
///     func intercept(
///         _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
///     ) async throws -> MiddlewareResponse {
///         var request = request
///         request.headerFields[.xRequestID] = UUID().uuidString
///         return try await next(request, body, context)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// The header fields and query parameters this middleware puts credentials in: never sent to
    /// another origin by a redirect, and hidden in logs (``MiddlewareContext/credentialFields``).
    /// None by default.
    var credentialFields: CredentialFields { get }

    /// Handles one request: usually adjusts it, calls `next`, and inspects what comes back.
    /// - Parameters:
    ///   - request: The request as the previous step left it.
    ///   - body: The request body, if any.
    ///   - context: Facts about the call: its name, attempt number, whether it wants authentication.
    ///   - next: The rest of the chain, ending at the transport. Call it zero, one or several times.
    /// - Returns: The response, its body and how it was obtained: usually what `next` returned.
    /// - Throws: Whatever `next` throws, or a ``CourierError`` of the middleware's own.
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse
}

extension Middleware {
    /// No credential fields.
    public var credentialFields: CredentialFields { .none }
}

/// The rest of a middleware chain, as a middleware sees it.
public typealias MiddlewareNext = @Sendable (HTTPRequest, HTTPBody?, MiddlewareContext) async throws -> MiddlewareResponse
