/// The requests a client has in flight: how ``Client/cancelAll()`` reaches each of them, and how
/// their timeouts fire.
///
/// One watchdog task per client (running only while requests are in flight) checks deadlines
/// every 25 ms and cancels requests whose time is up, so a request costs a few lock operations
/// instead of a timer task of its own.
final class InFlightRequests: Sendable {
    private struct Entry {
        var deadline: ContinuousClock.Instant
        var cancel: @Sendable () -> Void
        var timedOut = false
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var watchdogRunning = false
    }

    /// How often deadlines are checked: the precision of timeouts.
    static let tick: Duration = .milliseconds(25)

    private let state = LockedState(State())

    /// Registers a request that must finish by `deadline`; returns the id to remove it with.
    func insert(deadline: ContinuousClock.Instant, cancel: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, startWatchdog) = state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, cancel: cancel)
            defer { state.watchdogRunning = true }
            return (state.nextID, !state.watchdogRunning)
        }
        if startWatchdog {
            Task.detached { [weak self] in await self?.watchDeadlines() }
        }
        return id
    }

    /// Forgets a finished request.
    /// - Returns: `true` when the request was cancelled because its deadline passed.
    @discardableResult
    func remove(_ id: UInt64) -> Bool {
        state.withLock { $0.entries.removeValue(forKey: id)?.timedOut ?? false }
    }

    /// Cancels every registered request. The cancellers run outside the lock.
    func cancelAll() {
        let cancellers = state.withLock { state in
            defer { state.entries.removeAll() }
            return state.entries.values.map(\.cancel)
        }
        for cancel in cancellers { cancel() }
    }

    /// How many requests are in flight.
    var count: Int {
        state.withLock { $0.entries.count }
    }

    /// Cancels overdue requests until none is left in flight.
    private func watchDeadlines() async {
        while true {
            let now = ContinuousClock.now
            let (overdue, keepRunning) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                var overdue: [@Sendable () -> Void] = []
                for (id, entry) in state.entries where !entry.timedOut && entry.deadline <= now {
                    state.entries[id]?.timedOut = true
                    overdue.append(entry.cancel)
                }
                if state.entries.isEmpty { state.watchdogRunning = false }
                return (overdue, !state.entries.isEmpty)
            }
            for cancel in overdue { cancel() }
            guard keepRunning else { return }
            try? await Task.sleep(for: Self.tick)
        }
    }
}
