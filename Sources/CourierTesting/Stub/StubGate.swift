import Courier

/// Holds the answers given to it until the test opens it: a server that has received a request and
/// not answered yet, for tests of what happens meanwhile (callers joining, timeouts, cancellation).
///
/// ```swift
/// let gate = StubGate()
/// stub.answer(.get("profile"), with: .json(profile).held(until: gate))
/// let call = Task { try await client.send(ProfileAPI.me) }
/// await eventually { gate.waitingCount == 1 }   // the request reached the "server"
/// client.cancelAll()                            // or open the gate: gate.open()
/// ```
///
/// A held request ends as over a real network when its call is cancelled, times out, or is
/// cancelled by `cancelAll()`: it stops waiting at once, and ``cancelledCount`` counts it.
public final class StubGate: Sendable {
    private struct State {
        var isOpen: Bool
        var nextID: UInt64 = 0
        var waiting: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var cancelled = 0
    }

    private let state: LockedState<State>

    /// Creates a gate.
    /// - Parameter isOpen: Whether answers pass at once; closed by default.
    public init(isOpen: Bool = false) {
        state = LockedState(State(isOpen: isOpen))
    }

    /// Lets every held answer go, and every later one pass at once.
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Whether answers pass.
    public var isOpen: Bool {
        state.withLock { $0.isOpen }
    }

    /// How many requests are held now.
    public var waitingCount: Int {
        state.withLock { $0.waiting.count }
    }

    /// How many held requests ended before the gate opened: cancelled, timed out or interrupted.
    public var cancelledCount: Int {
        state.withLock { $0.cancelled }
    }

    /// Waits until the gate is open: what a held answer does, and what a test's own stand-in for
    /// a slow service (a token refresh, an upload's server) may do.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func wait() async throws {
        let id = state.withLock { state -> UInt64? in
            guard !state.isOpen else { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admitted = state.withLock { state -> Result<Void, any Error>? in
                    if state.isOpen { return .success(()) }
                    if Task.isCancelled {
                        state.cancelled += 1
                        return .failure(CancellationError())
                    }
                    state.waiting[id] = continuation
                    return nil
                }
                if let admitted { continuation.resume(with: admitted) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let continuation = state.waiting.removeValue(forKey: id) else { return nil }
                state.cancelled += 1
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
