/// One message handed to the connection, and its sender waiting for the write: the sender
/// learns how the write went, or leaves at once when its task is cancelled. A message handed
/// over cannot be withdrawn, so it may still go out after its sender has left.
final class WebSocketWrite: Sendable {
    private struct State {
        var outcome: Result<Void, CourierError>?
        var waiter: CheckedContinuation<Result<Void, CourierError>, Never>?
        var senderLeft = false
    }

    private let state = LockedState(State())

    /// The error of a sender whose task was cancelled while its message was being written.
    static let cancelled = CourierError(
        .cancelled,
        message: "The task was cancelled while the message was being written; it may still go out."
    )

    /// Records how the write went, and wakes the sender.
    /// - Parameter outcome: The write's outcome.
    func complete(_ outcome: Result<Void, CourierError>) {
        let waiter = state.withLock { state in
            defer { state.waiter = nil }
            if state.outcome == nil { state.outcome = outcome }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    /// Waits for the write.
    /// - Throws: The write's error; ``cancelled`` when the waiting task is cancelled first.
    func wait() async throws(CourierError) {
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Result<Void, CourierError>? = state.withLock { state in
                    if let outcome = state.outcome { return outcome }
                    if state.senderLeft || Task.isCancelled { return .failure(Self.cancelled) }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                state.senderLeft = true
                return state.waiter
            }
            waiter?.resume(returning: .failure(Self.cancelled))
        }
        try outcome.get()
    }
}
