#if AsyncHTTPClient
import CourierAsyncHTTPClient

/// Runs `body`, then shuts `transport` down, also when `body` throws.
/// - Parameters:
///   - transport: A transport that owns its `HTTPClient`.
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: What `body` or the shutdown throws.
public func withShutdown<T>(_ transport: HTTPClientTransport, _ body: () async throws -> T) async throws -> T {
    do {
        let result = try await body()
        try await transport.shutdown()
        return result
    } catch {
        try? await transport.shutdown()
        throw error
    }
}
#endif
