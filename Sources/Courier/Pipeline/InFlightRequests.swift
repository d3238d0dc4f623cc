/// Work a client has in flight: its calls, and what each call runs (its middleware's task, each
/// attempt's ``ExchangeInterruption``, each wait for an identical call's exchange). How ``Client/cancelAll()``
/// reaches each call, how attempts' timeouts fire, and what ``Client/activity`` reports.
///
/// One watchdog task per registry (running only while work with a deadline is in flight) checks
/// deadlines every 25 ms and cancels (or interrupts) work whose time is up, so an attempt costs a
/// few lock operations instead of a timer task of its own. Each deadline is read on the clock of its
/// call's configuration; the watchdog sleeps on the clock of the latest.
final class InFlightRequests: Sendable {
    /// Something a call runs, which cancelling ends.
    private struct Work {
        var deadline: Duration?
        /// The clock `deadline` is read on.
        var clock: ElapsedClock
        /// `nil` only between registering the work and attaching what cancels it (the task
        /// ``InFlightCall/run(_:)`` starts); other work is registered with it.
        var task: (any CancellableWork)?
        var timedOut = false
    }

    private struct State {
        var nextID: UInt64 = 0
        /// How many calls are in flight: what ``Client/activity`` reports.
        var calls = 0
        /// Raised by every ``cancelAll()``: calls that began before it are cancelled.
        var generation: UInt64 = 0
        var work: [UInt64: Work] = [:]
        var watchdogRunning = false
        /// What the watchdog sleeps on: the clock of the latest work with a deadline.
        var watchdogClock = ElapsedClock.continuous
        var nextSubscriberID: UInt64 = 0
        var subscribers: [UInt64: AsyncStream<Int>.Continuation] = [:]

        func publishCount() {
            for subscriber in subscribers.values { subscriber.yield(calls) }
        }
    }

    /// How often deadlines are checked: the precision of timeouts.
    static let tick: Duration = .milliseconds(25)

    private let state = LockedState(State())

    /// Registers a call, in flight until ``InFlightCall/end()``.
    func begin() -> InFlightCall {
        let generation = state.withLock { state in
            state.calls += 1
            if !state.subscribers.isEmpty { state.publishCount() }
            return state.generation
        }
        return InFlightCall(registry: self, generation: generation)
    }

    /// Forgets a call that has ended; one that ``cancelAll()`` cancelled is forgotten already.
    func end(_ call: InFlightCall) {
        state.withLock { state in
            guard call.generation == state.generation else { return }
            state.calls -= 1
            if !state.subscribers.isEmpty { state.publishCount() }
        }
    }

    /// Stops or resumes counting `call` in ``Client/activity``: a call waiting on another's
    /// exchange (``RequestCoalescer``) is not counted twice.
    func setCounted(_ call: InFlightCall, _ counted: Bool) {
        state.withLock { state in
            guard call.generation == state.generation else { return }
            state.calls += counted ? 1 : -1
            if !state.subscribers.isEmpty { state.publishCount() }
        }
    }

    /// Gives registered work its task, which cancelling it cancels; cancels at once when the work
    /// was cancelled (by ``cancelAll()`` or its deadline) before it had one. The task is kept as
    /// it is, not in a closure, which would cost an allocation per call.
    func attach(_ id: UInt64, _ task: some CancellableWork) {
        let cancelNow = state.withLock { state in
            // Through the index: `work[id]?.task = …` costs several allocations per call.
            guard let index = state.work.index(forKey: id), !state.work.values[index].timedOut else { return true }
            state.work.values[index].task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// Registers work of `call` that must finish by `deadline` (if any); returns the id to remove
    /// it with, or `nil` when the call was cancelled.
    ///
    /// Work that exists before it is registered (an attempt's interruption, a wait's departure, a
    /// ticket) comes with what cancels it, `task`: one lock operation instead of two. Work that must
    /// be registered before it starts (a task of the call) is given its task by ``attach(_:_:)``.
    func insert(for call: InFlightCall, deadline: Duration?, clock: ElapsedClock, task: (any CancellableWork)? = nil) -> UInt64? {
        let registered = state.withLock { state -> (id: UInt64, startWatchdog: Bool)? in
            guard call.generation == state.generation else { return nil }
            state.nextID += 1
            let id = state.nextID
            state.work[id] = Work(deadline: deadline, clock: clock, task: task)
            guard deadline != nil else { return (id, false) }
            state.watchdogClock = clock
            guard !state.watchdogRunning else { return (id, false) }
            state.watchdogRunning = true
            return (id, true)
        }
        if registered?.startWatchdog == true {
            Task.detached { [weak self] in await self?.watchDeadlines() }
        }
        return registered?.id
    }

    /// Forgets finished work.
    /// - Returns: `true` when the work was cancelled because its deadline passed.
    @discardableResult
    func remove(_ id: UInt64) -> Bool {
        state.withLock { $0.work.removeValue(forKey: id)?.timedOut ?? false }
    }

    /// Cancels every call in flight: their tasks now, outside the lock, and any work they would
    /// start later.
    func cancelAll() {
        let cancelled = state.withLock { state in
            defer {
                state.generation += 1
                state.calls = 0
                state.work.removeAll()
                state.publishCount()
            }
            return state.work.values.compactMap(\.task)
        }
        for task in cancelled { task.cancel() }
    }

    /// How many calls are in flight.
    var count: Int {
        state.withLock { $0.calls }
    }

    /// The number of calls in flight now and after every change, until the stream's consumer stops.
    func counts() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextSubscriberID += 1
            state.subscribers[state.nextSubscriberID] = continuation
            continuation.yield(state.calls)
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
            let (overdue, keepRunning, clock) = state.withLock { state -> ([any CancellableWork], Bool, ElapsedClock) in
                var overdue: [any CancellableWork] = []
                var waiting = false
                var index = state.work.startIndex
                while index != state.work.endIndex {
                    let work = state.work.values[index]
                    if let deadline = work.deadline, !work.timedOut {
                        if deadline <= work.clock.now() {
                            state.work.values[index].timedOut = true
                            if let task = work.task { overdue.append(task) }
                        } else {
                            waiting = true
                        }
                    }
                    state.work.formIndex(after: &index)
                }
                if !waiting { state.watchdogRunning = false }
                return (overdue, waiting, state.watchdogClock)
            }
            for task in overdue { task.cancel() }
            guard keepRunning else { return }
            try? await clock.sleep(Self.tick)
        }
    }
}

/// Work ``InFlightRequests`` can cancel: a task of a call, an attempt's interruption, a wait for
/// an identical call's exchange.
protocol CancellableWork: Sendable {
    func cancel()
}

extension Task: CancellableWork {}
