import HTTPTypes
import OpenAPIRuntime

/// The fold of a list of middleware around a final step.
enum MiddlewareChain {
    /// Runs `middleware[index...]` and then `terminal`.
    static func run(
        _ middleware: [any Middleware],
        from index: Int = 0,
        request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        terminal: @escaping MiddlewareNext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard index < middleware.count else { return try await terminal(request, body, context) }
        return try await middleware[index].intercept(request, body: body, context: context) { request, body, context in
            try await run(middleware, from: index + 1, request: request, body: body, context: context, terminal: terminal)
        }
    }
}
