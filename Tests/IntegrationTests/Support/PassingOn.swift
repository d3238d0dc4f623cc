import Courier

/// A step that only passes each request on: a test sends the same call with and without
/// middleware and expects the same outcome.
struct PassingOn: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        try await next(request, body, context)
    }
}
