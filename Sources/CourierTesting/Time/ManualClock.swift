import Courier

/// A clock that moves only when a test moves it: delays, timeouts, retry back-off and rate-limit
/// waits measured on it pass in no real time.
///
/// Give the same clock to the client (`Configuration.clock`) and to the
/// ``StubTransport``, start the call in a task, then move time:
///
/// ```swift
/// let clock = ManualClock()
/// let stub = StubTransport(clock: clock)
/// stub.answer(.get("slow"), with: .status(.ok).delayed(by: .seconds(45)))
/// let client = Client(baseURL: "https://api.example.com", transport: stub) {
///     $0.clock = clock
///     $0.timeout = .seconds(30)
/// }
/// let call = Task { try await client.send(Request<Void>(.get, "slow")) }
/// let error = await #expect(throws: CourierError.self) { try await clock.run(call) }   // .timedOut, at once
/// ```
///
/// A test clock cannot know what a woken task will do next: `advance(by:)` lets woken tasks run
/// for a bounded number of rounds before it moves on. To wait for an outcome, prefer `run(_:)` or
/// `run(until:)`, which keep moving from one deadline to the next until it comes.
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates an instant.
        /// - Parameter offset: The time since the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// This instant moved by `duration`.
        /// - Parameter duration: How far to move.
        /// - Returns: The moved instant.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        /// - Parameter other: The later (or earlier) instant.
        /// - Returns: The time between them, negative when `other` is earlier.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state = LockedState(State())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant: where the test last moved the clock.
    public var now: Instant { state.withLock { $0.now } }

    /// No resolution limit: every instant can be reached.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest instant a sleeping task waits for, if any.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Suspends until the test moves the clock to `deadline` or past it.
    /// - Parameters:
    ///   - deadline: When to resume.
    ///   - tolerance: Ignored: the clock moves only when told.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int? in
            guard deadline > state.now else { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Registration { case cancelled, due, waiting }
                let registration = state.withLock { state -> Registration in
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    // The clock may have passed the deadline since it was read.
                    if deadline <= state.now { return .due }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .waiting
                }
                switch registration {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .due: continuation.resume()
                case .waiting: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward, waking in order every task whose deadline it passes, and lets the
    /// woken tasks run before moving on.
    /// - Parameter duration: How far to move.
    public func advance(by duration: Duration) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never backwards), waking in order every task whose deadline
    /// it passes.
    /// - Parameter instant: Where to move.
    public func advance(to instant: Instant) async {
        await Self.settle()
        while true {
            let (woken, before) = state.withLock { state -> ([Sleeper], Int) in
                let before = state.sleepers.count
                guard let next = state.sleepers.map(\.deadline).min(), next <= instant else { return ([], before) }
                state.now = max(state.now, next)
                let due = state.sleepers.filter { $0.deadline <= next }
                state.sleepers.removeAll { $0.deadline <= next }
                return (due, before)
            }
            if woken.isEmpty { break }
            for sleeper in woken { sleeper.continuation.resume() }
            // A periodic task (the client's deadline watchdog) sleeps again at once: give the
            // woken a few rounds to do so, so that its next deadline before `instant` is not
            // skipped. Tasks that end instead cost only these bounded rounds.
            for _ in 0..<8 {
                await Self.settle()
                if sleeperCount >= before { break }
            }
        }
        state.withLock { $0.now = max($0.now, instant) }
        await Self.settle()
    }

    /// Moves the clock from one deadline to the next (a second at most at a time) until
    /// `condition` holds: what a test does to let a call with waits in it (back-off, rate limits,
    /// latency) run to its end.
    ///
    /// ```swift
    /// let call = Task { try await service.popular() }
    /// #expect(await clock.run(until: { stub.requests.count == 2 }))
    /// ```
    /// - Parameters:
    ///   - condition: What the test waits for.
    ///   - limit: The most time the clock may move; an hour by default.
    /// - Returns: Whether `condition` held before the clock moved past `limit`, or before a few
    ///   seconds passed with nothing left to wake.
    @discardableResult
    public func run(until condition: @Sendable () -> Bool, limit: Duration = .seconds(3600)) async -> Bool {
        let end = now.advanced(by: limit)
        var idleRounds = 0
        while !condition() {
            await Self.settle()
            if condition() { return true }
            guard let next = nextDeadline else {
                // Nothing sleeps yet: the call may still be on its way to its first wait, perhaps
                // through work off the cooperative pool (a file written, a lock taken). Wait for it
                // a little in real time, a few seconds at most: a bound against hangs, not a timing.
                idleRounds += 1
                if idleRounds > 5_000 { return false }
                if idleRounds > 64 { try? await Task.sleep(for: .milliseconds(1)) } else { await Task.yield() }
                continue
            }
            idleRounds = 0
            guard next <= end else { return condition() }
            // At most a second at a time: a periodic task that was slow to sleep again on a busy
            // machine (the client's deadline watchdog) is then late by a second at most, instead
            // of skipped past a far deadline such as a stub's latency.
            await advance(to: min(next, now.advanced(by: Self.longestStep)))
        }
        return true
    }

    /// Moves the clock from one deadline to the next until `task` ends, and returns its value:
    /// how a test lets a call with waits in it (a timeout, back-off, latency) run to its end.
    ///
    /// ```swift
    /// let call = Task { try await client.send(Request<Void>(.get, "slow")) }
    /// let error = await #expect(throws: CourierError.self) { try await clock.run(call) }
    /// ```
    /// - Parameters:
    ///   - task: The task, usually a call.
    ///   - limit: The most time the clock may move; an hour by default. A task still running
    ///     then is cancelled, so the test ends rather than hangs.
    /// - Returns: The task's value.
    /// - Throws: The task's error.
    public func run<Success: Sendable>(_ task: Task<Success, any Error>, limit: Duration = .seconds(3600)) async throws -> Success {
        let finished = LockedState(false)
        let watcher = Task {
            _ = await task.result
            finished.withLock { $0 = true }
        }
        if await !run(until: { finished.withLock { $0 } }, limit: limit) { task.cancel() }
        await watcher.value
        return try await task.value
    }

    /// The most ``run(until:limit:)`` moves the clock in one step.
    private static let longestStep: Duration = .seconds(1)

    /// Lets the tasks the clock woke run until they wait again: a bounded number of yields.
    private static func settle() async {
        for _ in 0..<64 { await Task.yield() }
    }
}
