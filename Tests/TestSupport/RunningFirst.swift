import Courier
import HTTPTypes
import OpenAPIRuntime

/// A middleware that runs `action` on each request before passing it on unchanged: a test changes
/// the world between building a request and sending it (a file that grows), or makes a call of its
/// own first, as a token refresh does.
public struct RunningFirst: Middleware {
    let action: @Sendable (HTTPRequest) async throws -> Void

    /// A middleware that runs `action` first.
    /// - Parameter action: Given each request before it is passed on.
    public init(_ action: @escaping @Sendable (HTTPRequest) async throws -> Void) {
        self.action = action
    }

    /// Runs the action, then the rest of the chain.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body, passed on as it is.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: What the rest of the chain returns.
    /// - Throws: The action's errors, and the chain's.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        try await action(request)
        return try await next(request, body, context)
    }
}
