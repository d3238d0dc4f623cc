import Courier
import Foundation
import OpenAPIRuntime
import TestSupport

/// Passes every request on, keeping the context each one came with.
struct ContextSpy: Middleware {
    let seen: LockedBox<[MiddlewareContext]>

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        seen.mutate { $0.append(context) }
        return try await next(request, body, context)
    }
}
