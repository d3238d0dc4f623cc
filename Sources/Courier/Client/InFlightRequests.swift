/// Work a client has in flight: how ``Client/cancelAll()`` reaches each request, how attempts'
/// timeouts fire, and what ``Client/activity`` reports.
///
/// One watchdog task per registry (running only while work with a deadline is in flight) checks
/// deadlines every 25 ms and cancels work whose time is up, so an attempt costs a few lock
/// operations instead of a timer task of its own.
final class InFlightRequests: Sendable {
    private struct Entry {
        var deadline: ContinuousClock.Instant?
        /// `nil` only between ``perform(deadline:timeoutError:_:)`` registering its work and
        /// starting the work's task.
        var work: (any CancellableWork)?
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

    /// Runs `operation` in a task of its own that ``cancelAll()`` and `deadline` can cancel, and
    /// waits for it; cancelling the waiting task cancels it too.
    ///
    /// Where the platform has `Task.immediate`, the task starts on the calling thread and runs until
    /// it first suspends: work that never waits (a stubbed or instant response) costs no thread hop.
    /// The work is registered before it starts, so a ``cancelAll()`` at any moment reaches it.
    /// - Parameters:
    ///   - deadline: When the work is cancelled, if it has not finished.
    ///   - timeoutError: Thrown instead of the work's own error when the deadline cancelled it.
    ///   - operation: The work.
    /// - Returns: The work's value.
    func perform<Value: Sendable>(
        deadline: ContinuousClock.Instant?,
        timeoutError: @autoclosure () -> any Error = CancellationError(),
        _ operation: sending @escaping () async throws -> Value
    ) async throws -> Value {
        let id = insert(deadline: deadline)
        let work = Self.startTask(operation)
        attach(id, work)
        do {
            let value = try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
            remove(id)
            return value
        } catch {
            if remove(id) && !Task.isCancelled { throw timeoutError() }
            throw error
        }
    }

    /// A task running `operation`, started on the calling thread where the platform can.
    private static func startTask<Value: Sendable>(
        _ operation: sending @escaping () async throws -> Value
    ) -> Task<Value, any Error> {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.immediate(operation: operation)
        }
        #endif
        return Task(operation: operation)
    }

    /// Gives registered work its task, which cancelling it cancels; cancels at once when the work
    /// was cancelled (by ``cancelAll()`` or its deadline) before it had one. The task is kept as
    /// it is, not in a closure, which would cost an allocation per call.
    private func attach(_ id: UInt64, _ work: some CancellableWork) {
        let cancelNow = state.withLock { state in
            // Through the index: `entries[id]?.work = …` costs several allocations per call.
            guard let index = state.entries.index(forKey: id), !state.entries.values[index].timedOut else { return true }
            state.entries.values[index].work = work
            return false
        }
        if cancelNow { work.cancel() }
    }

    /// Registers work that must finish by `deadline` (if any); returns the id to remove it with.
    private func insert(deadline: ContinuousClock.Instant?) -> UInt64 {
        let (id, startWatchdog) = state.withLock { state in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline)
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

    /// Cancels every registered request. Their tasks are cancelled outside the lock.
    func cancelAll() {
        let cancelled = state.withLock { state in
            defer {
                state.entries.removeAll()
                state.publishCount()
            }
            return state.entries.values.compactMap(\.work)
        }
        for work in cancelled { work.cancel() }
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
            let (overdue, keepRunning) = state.withLock { state -> ([any CancellableWork], Bool) in
                var overdue: [any CancellableWork] = []
                var waiting = false
                var index = state.entries.startIndex
                while index != state.entries.endIndex {
                    let entry = state.entries.values[index]
                    if let deadline = entry.deadline, !entry.timedOut {
                        if deadline <= now {
                            state.entries.values[index].timedOut = true
                            if let work = entry.work { overdue.append(work) }
                        } else {
                            waiting = true
                        }
                    }
                    state.entries.formIndex(after: &index)
                }
                if !waiting { state.watchdogRunning = false }
                return (overdue, waiting)
            }
            for work in overdue { work.cancel() }
            guard keepRunning else { return }
            try? await Task.sleep(for: Self.tick)
        }
    }
}

/// Work ``InFlightRequests`` can cancel: the task running a request.
protocol CancellableWork: Sendable {
    func cancel()
}

extension Task: CancellableWork {}
