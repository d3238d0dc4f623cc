/// What ``withinBound(_:_:_:)`` throws when the work it watches has not finished in time.
public struct BoundExceeded: Error, CustomStringConvertible {
    /// What did not finish, and the bound.
    public let description: String
}

/// Runs `body` in a task of its own and returns what it returns or throws; when it has not
/// finished within `bound`, cancels it and throws ``BoundExceeded`` without waiting for it. For a
/// check that something ends (fails at once, say) instead of hanging: the bound is generous, and
/// the test asserts the outcome, not the speed.
///
/// ```swift
/// let error = await #expect(throws: CourierError.self) {
///     try await withinBound(.seconds(10), "opening the socket") { try await client.webSocket(endpoint) }
/// }
/// ```
/// - Parameters:
///   - bound: The longest wait.
///   - what: What is waited for, for the error's description.
///   - body: The work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or ``BoundExceeded``.
public func withinBound<T: Sendable>(
    _ bound: Duration,
    _ what: String,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let pending = LockedBox<CheckedContinuation<T, any Error>?>(continuation)
        let timer = LockedBox<Task<Void, Never>?>(nil)
        let work = Task {
            do {
                let value = try await body()
                pending.mutate { $0.take() }?.resume(returning: value)
            } catch {
                pending.mutate { $0.take() }?.resume(throwing: error)
            }
            timer.value?.cancel()
        }
        timer.mutate {
            $0 = Task {
                try? await Task.sleep(for: bound)
                guard !Task.isCancelled, let waiting = pending.mutate({ $0.take() }) else { return }
                work.cancel()
                waiting.resume(throwing: BoundExceeded(description: "\(what) did not finish within \(bound)"))
            }
        }
    }
}
