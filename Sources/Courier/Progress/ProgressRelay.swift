import Foundation

/// Hands one transfer's progress to its handler on a queue of its own, never on the thread that
/// reports it: URLSession reports progress on the thread that runs the session's callbacks (on
/// Linux, the thread that moves the bytes; see ``DelegateQueue``), where a slow handler would hold
/// up every task of the session.
///
/// Values are delivered in the order they were reported; while the handler is busy, only the
/// newest waiting value is kept, so a slow handler skips values but always sees the last one.
final class ProgressRelay: Sendable {
    private struct State {
        /// The newest value not yet handed over.
        var waiting: TransferProgress?
        /// Whether a delivery is queued or running; it takes `waiting` before it ends.
        var delivering = false
    }

    private let handler: @Sendable (TransferProgress) -> Void
    private let queue = DispatchQueue(label: "Courier.ProgressRelay")
    private let state = LockedState(State())

    /// Creates a relay to `handler`.
    init(_ handler: @escaping @Sendable (TransferProgress) -> Void) {
        self.handler = handler
    }

    /// Queues `progress` for the handler, replacing a value that still waits; returns at once.
    func report(_ progress: TransferProgress) {
        let starts = state.withLock { state -> Bool in
            state.waiting = progress
            defer { state.delivering = true }
            return !state.delivering
        }
        if starts { queue.async { self.deliver() } }
    }

    /// Runs `body` on the relay's queue once every value reported before this call is delivered:
    /// a transfer ends after its last progress, as its caller sees it.
    func afterDelivery(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }

    private func deliver() {
        while let next = state.withLock({ state -> TransferProgress? in
            guard let waiting = state.waiting else {
                state.delivering = false
                return nil
            }
            state.waiting = nil
            return waiting
        }) {
            handler(next)
        }
    }
}
