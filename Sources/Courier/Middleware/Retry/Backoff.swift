/// Exponential backoff with full jitter: before retry *n* the client waits a random time between
/// zero and `min(maximum, base × 2ⁿ⁻¹)`, so clients that failed together do not retry together.
public struct Backoff: Sendable, Equatable {
    /// The ceiling of the first wait.
    public var base: Duration
    /// The largest ceiling any wait can have.
    public var maximum: Duration

    /// Creates a backoff.
    /// - Parameters:
    ///   - base: The ceiling of the first wait, 200 ms by default.
    ///   - maximum: The largest ceiling, 10 s by default.
    public init(base: Duration = .milliseconds(200), maximum: Duration = .seconds(10)) {
        self.base = base
        self.maximum = maximum
    }

    /// The ceiling of the wait before retry `retry` (1 for the first retry).
    public func ceiling(forRetry retry: Int) -> Duration {
        let doublings = min(max(retry - 1, 0), 30)
        let ceiling = base * (1 << doublings)
        return min(ceiling, maximum)
    }

    /// The wait before retry `retry`.
    /// - Parameters:
    ///   - retry: 1 for the first retry.
    ///   - random: A number in `0..<1`; production passes a random one, tests a fixed one.
    public func delay(forRetry retry: Int, random: Double) -> Duration {
        ceiling(forRetry: retry) * min(max(random, 0), 1)
    }
}
