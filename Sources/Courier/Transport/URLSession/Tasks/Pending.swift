import Foundation

/// A result waited for by one task and settled by URLSession's callbacks, whichever comes first.
struct Pending<Output: Sendable> {
    var continuation: CheckedContinuation<Output, any Error>?
    var outcome: Result<Output, any Error>?
    var cancelTask: (@Sendable () -> Void)?

    /// Whether the result is settled already.
    var isSettled: Bool { outcome != nil }

    /// Records the waiting task's continuation. Returns it back when the result is settled, for
    /// the caller to resume outside the lock.
    mutating func wait(
        _ continuation: CheckedContinuation<Output, any Error>,
        cancelTask: @escaping @Sendable () -> Void
    ) -> (CheckedContinuation<Output, any Error>, Result<Output, any Error>)? {
        if let outcome { return (continuation, outcome) }
        self.continuation = continuation
        self.cancelTask = cancelTask
        return nil
    }

    /// Settles the result once; later outcomes are ignored.
    /// - Returns: Whether this outcome settled it, and the continuation to resume with it outside
    ///   the lock (none while the task has not started waiting).
    mutating func settle(
        _ outcome: Result<Output, any Error>
    ) -> (settled: Bool, resume: (CheckedContinuation<Output, any Error>, Result<Output, any Error>)?) {
        guard self.outcome == nil else { return (false, nil) }
        self.outcome = outcome
        defer { continuation = nil }
        return (true, continuation.map { ($0, outcome) })
    }
}

extension LockedState {
    /// Records the waiting task's continuation in the ``Pending`` at `pending`, or resumes it at
    /// once, outside the lock, when the result is settled already: a ``DataTaskHandler``'s `start`.
    /// - Parameters:
    ///   - pending: Where the state keeps the result.
    ///   - continuation: The waiting task's continuation.
    ///   - cancelTask: Stops the URLSession task.
    /// - Returns: Whether the URLSession task should be started (the result is not settled yet).
    func wait<Output>(
        at pending: WritableKeyPath<Value, Pending<Output>>,
        _ continuation: CheckedContinuation<Output, any Error>,
        cancelTask: @escaping @Sendable () -> Void
    ) -> Bool {
        guard let (continuation, outcome) = withLock({ $0[keyPath: pending].wait(continuation, cancelTask: cancelTask) }) else {
            return true
        }
        continuation.resume(with: outcome)
        return false
    }
}
