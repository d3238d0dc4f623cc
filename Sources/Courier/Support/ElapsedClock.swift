/// A clock as middleware uses it: time elapsed since the clock was made, and sleeping.
///
/// Built from any `Clock<Duration>`, so tests inject a test clock and production uses
/// `ContinuousClock`; the decisions themselves take plain `Duration`s and never read a clock.
struct ElapsedClock: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { duration in
            guard duration > .zero else { return try Task.checkCancellation() }
            try await clock.sleep(for: duration)
        }
    }
}
