/// A clock as the client uses it: time elapsed since a fixed start, and sleeping.
///
/// Built from any `Clock<Duration>`, so tests inject a test clock and production uses
/// `ContinuousClock`; the decisions themselves take plain `Duration`s and never read a clock.
struct ElapsedClock: Sendable {
    /// The clock this one reads.
    let base: any Clock<Duration>
    let now: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void
    /// The start, when the clock is `ContinuousClock`: an elapsed time is then a moment on it.
    private let continuousStart: ContinuousClock.Instant?

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        base = clock
        continuousStart = start as? ContinuousClock.Instant
        now = { start.duration(to: clock.now) }
        sleep = { duration in
            guard duration > .zero else { return try Task.checkCancellation() }
            try await clock.sleep(for: duration)
        }
    }

    /// The moment `elapsed` names, on `ContinuousClock`; `nil` when this clock reads another one,
    /// whose time need not pass as real time does.
    /// - Parameter elapsed: A time on this clock.
    /// - Returns: The same moment on `ContinuousClock`, or `nil`.
    func continuousInstant(at elapsed: Duration) -> ContinuousClock.Instant? {
        continuousStart?.advanced(by: elapsed)
    }

    /// `ContinuousClock`, from one start for the whole process: every client and middleware that
    /// uses it measures time on the same line.
    static let continuous = ElapsedClock(ContinuousClock())
}
