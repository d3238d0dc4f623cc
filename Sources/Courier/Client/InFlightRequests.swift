/// Work a client has in flight: how ``Client/cancelAll()`` reaches each request, how attempts'
/// timeouts fire, and what ``Client/activity`` reports.
///
/// One watchdog task per registry (running only while work with a deadline is in flight) checks
/// deadlines every 25 ms and cancels work whose time is up, so an attempt costs a few lock
/// operations instead of a timer task of its own.
final class InFlightRequests: Sendable {
    private struct Entry {
        var deadline: ContinuousClock.Instant?
        var cancel: @Sendable () -> Void
        var timedOut = false
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var watchdogRunning = false
        var nextSubscriberID: UInt64 = 0
        var subscribers: [UInt64: AsyncStream<Int>.Continuation] = [:]

        func publishCount() {
            for subscriber in subscribers.values { subscriber.yield(entries.count) }
        }
    }

    /// How often deadlines are checked: the precision of timeouts.
    static let tick: Duration = .milliseconds(25)

    private let state = LockedState(State())

    /// Registers work that must finish by `deadline` (if any); returns the id to remove it with.
    func insert(deadline: ContinuousClock.Instant?, cancel: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, startWatchdog) = state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, cancel: cancel)
            if !state.subscribers.isEmpty { state.publishCount() }
            guard deadline != nil, !state.watchdogRunning else { return (state.nextID, false) }
            state.watchdogRunning = true
            return (state.nextID, true)
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
        state.withLock { state in
            let entry = state.entries.removeValue(forKey: id)
            if entry != nil && !state.subscribers.isEmpty { state.publishCount() }
            return entry?.timedOut ?? false
        }
    }

    /// Cancels every registered request. The cancellers run outside the lock.
    func cancelAll() {
        let cancellers = state.withLock { state in
            defer {
                state.entries.removeAll()
                state.publishCount()
            }
            return state.entries.values.map(\.cancel)
        }
        for cancel in cancellers { cancel() }
    }

    /// How many requests are in flight.
    var count: Int {
        state.withLock { $0.entries.count }
    }

    /// The number of entries now and after every change, until the stream's consumer stops.
    func counts() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextSubscriberID += 1
            state.subscribers[state.nextSubscriberID] = continuation
            continuation.yield(state.entries.count)
            return state.nextSubscriberID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Cancels overdue work until none with a deadline is left.
    private func watchDeadlines() async {
        while true {
            let now = ContinuousClock.now
            let (overdue, keepRunning) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                var overdue: [@Sendable () -> Void] = []
                var waiting = false
                for (id, entry) in state.entries {
                    guard let deadline = entry.deadline, !entry.timedOut else { continue }
                    if deadline <= now {
                        state.entries[id]?.timedOut = true
                        overdue.append(entry.cancel)
                    } else {
                        waiting = true
                    }
                }
                if !waiting { state.watchdogRunning = false }
                return (overdue, waiting)
            }
            for cancel in overdue { cancel() }
            guard keepRunning else { return }
            try? await Task.sleep(for: Self.tick)
        }
    }
}
