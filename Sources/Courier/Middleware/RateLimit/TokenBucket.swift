/// A token bucket that hands out send times: `burst` requests may go at once, then one every
/// `interval`. Requests beyond that reserve later times in arrival order, so waiting is FIFO.
///
/// A pure value: every method takes the current time (a `Duration` since any fixed start).
public struct TokenBucket: Sendable, Equatable {
    /// The most requests that may go at once.
    public let burst: Int
    /// The time one token takes to come back.
    public let interval: Duration
    /// Tokens available at ``updatedAt``; negative when requests have reserved future tokens.
    private(set) var tokens: Double
    /// The time `tokens` refers to; later than now while the server has asked for a pause.
    private(set) var updatedAt: Duration

    /// Creates a full bucket.
    /// - Parameters:
    ///   - burst: The most requests at once (at least 1).
    ///   - interval: The time between requests once the burst is spent.
    ///   - now: The current time.
    public init(burst: Int, interval: Duration, now: Duration = .zero) {
        self.burst = max(1, burst)
        self.interval = interval
        self.tokens = Double(self.burst)
        self.updatedAt = now
    }

    /// Takes a token for one request.
    /// - Parameter now: The current time.
    /// - Returns: How long the request must wait before it is sent; `.zero` to go now.
    public mutating func reserve(now: Duration) -> Duration {
        refill(now: now)
        tokens -= 1
        let start = max(updatedAt, now)
        let ready = tokens >= 0 ? start : start + interval * (-tokens)
        return ready - now
    }

    /// The server asked for no requests until `now + delay` (`Retry-After`, or a rate-limit reset
    /// with nothing remaining): no token is handed out for an earlier time.
    public mutating func pause(for delay: Duration, now: Duration) {
        refill(now: now)
        let until = now + delay
        guard until > updatedAt else { return }
        tokens = min(tokens, 0) + 1
        updatedAt = until
    }

    /// The server said how many requests remain in its window: never hand out more than that
    /// before the window resets.
    /// - Parameters:
    ///   - remaining: Requests the server will still accept.
    ///   - reset: Time until the server's window resets.
    ///   - now: The current time.
    public mutating func adapt(remaining: Int, reset: Duration?, now: Duration) {
        refill(now: now)
        if remaining <= 0, let reset {
            pause(for: reset, now: now)
        } else if Double(remaining) < tokens {
            tokens = Double(remaining)
        }
    }

    /// Whether the server's pause is still running at `now`.
    public func isPaused(now: Duration) -> Bool {
        updatedAt > now
    }

    private mutating func refill(now: Duration) {
        guard now > updatedAt else { return }
        let earned = (now - updatedAt) / interval
        tokens = min(Double(burst), tokens + earned)
        updatedAt = now
    }
}
