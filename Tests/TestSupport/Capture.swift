import Courier

/// The outcome of `body` as a `Result`, its error as the client reports it, for checks on either
/// outcome without a `do`/`catch` that could pass silently.
/// - Parameter body: The call.
/// - Returns: Its value, or its error as a `CourierError`.
public func capture<T>(_ body: () async throws -> T) async -> Result<T, CourierError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(CourierError(error))
    }
}

extension Result {
    /// The error of a failure, `nil` for a success.
    public var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
