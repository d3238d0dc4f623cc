/// The requests waiting for a refresh, each resumed exactly once: when the refresh ends, or
/// earlier when its task is cancelled or its timeout passes. ``AuthenticationSession`` keeps it
/// under its lock and resumes the continuations this returns after unlocking.
///
/// A waiter is added when the session decides it must wait, and attaches its continuation a
/// moment later; whatever settles it in between (the refresh ending, a cancellation, the timeout)
/// is kept and handed over when it attaches, so no outcome is lost to that race.
struct RefreshWaiters {
    /// How a wait ended.
    enum Outcome: Sendable {
        /// New tokens: replay with them.
        case renewed(token: String, stamp: RefreshCoordinator.Stamp)
        /// No new tokens (the refresh failed or was refused, or the user signed out).
        case failed
        /// The waiting task was cancelled.
        case cancelled
        /// The waiter's timeout passed first.
        case timedOut
    }

    /// A continuation to resume once the lock is released.
    struct Resumption {
        let continuation: CheckedContinuation<Outcome, Never>
        let outcome: Outcome

        func resume() { continuation.resume(returning: outcome) }
    }

    private struct Waiter {
        var continuation: CheckedContinuation<Outcome, Never>?
        var outcome: Outcome?
    }

    private var waiters: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 0

    /// How many are waiting.
    var count: Int { waiters.count }

    /// Adds a waiter that has no continuation yet.
    /// - Returns: Its identifier.
    mutating func add() -> UInt64 {
        nextID += 1
        waiters[nextID] = Waiter()
        return nextID
    }

    /// Gives waiter `id` its continuation.
    /// - Parameters:
    ///   - id: The waiter.
    ///   - continuation: What to resume when it is settled.
    /// - Returns: The outcome to resume with at once, when the waiter was settled already.
    mutating func attach(_ id: UInt64, _ continuation: CheckedContinuation<Outcome, Never>) -> Outcome? {
        guard let outcome = waiters[id]?.outcome else {
            waiters[id]?.continuation = continuation
            return nil
        }
        waiters[id] = nil
        return outcome
    }

    /// Ends one waiter's wait; the first outcome wins, later ones are ignored.
    /// - Parameters:
    ///   - id: The waiter.
    ///   - outcome: How its wait ended.
    /// - Returns: The continuation to resume, when the waiter had attached one.
    mutating func settle(_ id: UInt64, with outcome: Outcome) -> Resumption? {
        guard let waiter = waiters[id], waiter.outcome == nil else { return nil }
        guard let continuation = waiter.continuation else {
            waiters[id]?.outcome = outcome
            return nil
        }
        waiters[id] = nil
        return Resumption(continuation: continuation, outcome: outcome)
    }

    /// Ends every wait not ended yet.
    /// - Parameter outcome: How they ended.
    /// - Returns: The continuations to resume.
    mutating func settleAll(with outcome: Outcome) -> [Resumption] {
        let ids = Array(waiters.keys)
        return ids.compactMap { settle($0, with: outcome) }
    }
}
