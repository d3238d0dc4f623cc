/// The requests a client has in flight, so that ``Client/cancelAll()`` can reach each of them.
final class InFlightRequests: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var cancellers: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = LockedState(State())

    /// Registers a request; returns the id to remove it with.
    func insert(cancel: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.cancellers[state.nextID] = cancel
            return state.nextID
        }
    }

    /// Forgets a finished request.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.cancellers.removeValue(forKey: id) }
    }

    /// Cancels every registered request. The cancellers run outside the lock.
    func cancelAll() {
        let cancellers = state.withLock { state in
            defer { state.cancellers.removeAll() }
            return Array(state.cancellers.values)
        }
        for cancel in cancellers { cancel() }
    }

    /// How many requests are in flight.
    var count: Int {
        state.withLock { $0.cancellers.count }
    }
}
