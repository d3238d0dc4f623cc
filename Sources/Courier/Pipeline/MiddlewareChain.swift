import HTTPTypes
import OpenAPIRuntime

/// The fold of a list of middleware around a final step.
enum MiddlewareChain {
    /// The chain as one step: `middleware`, outermost first, and then `terminal`; with no
    /// middleware, `terminal` itself.
    ///
    /// Middleware may wait on anything (a throttle's free slot, a retry's back-off, a token
    /// refresh), so they run in a task of the call, which ``Client/cancelAll()`` reaches. The
    /// terminal step runs each attempt in that same task, with an ``ExchangeInterruption``.
    /// - Parameters:
    ///   - middleware: The steps, outermost first.
    ///   - call: The call, registered with its client.
    ///   - terminal: The last step.
    /// - Returns: What the call sends its request through.
    static func composed(
        _ middleware: [any Middleware],
        call: InFlightCall,
        terminal: @escaping MiddlewareNext
    ) -> MiddlewareNext {
        guard !middleware.isEmpty else { return terminal }
        return { request, body, context in
            try await call.run {
                try await fold(middleware, from: 0, request: request, body: body, context: context, terminal: terminal)
            }
        }
    }

    /// Runs `middleware[index...]` and then `terminal`.
    private static func fold(
        _ middleware: [any Middleware],
        from index: Int,
        request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        terminal: @escaping MiddlewareNext
    ) async throws -> MiddlewareResponse {
        guard index < middleware.count else { return try await terminal(request, body, context) }
        return try await middleware[index].intercept(request, body: body, context: context) { request, body, context in
            try await fold(middleware, from: index + 1, request: request, body: body, context: context, terminal: terminal)
        }
    }
}
