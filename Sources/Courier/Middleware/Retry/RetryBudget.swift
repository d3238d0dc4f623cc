/// A limit on retries across all requests of a client, so that a failing backend is not hit with
/// several times its normal load: each failure that wants a retry costs a token, each success
/// earns back a fraction of one, and retries stop while fewer than half the tokens are left
/// (the scheme gRPC uses for retry throttling).
public struct RetryBudget: Sendable, Equatable {
    /// The most tokens the budget holds.
    public var maximumTokens: Double
    /// What a success earns back.
    public var tokenRatio: Double
    /// Tokens left now.
    public private(set) var tokens: Double

    /// Creates a full budget.
    /// - Parameters:
    ///   - maximumTokens: 10 by default: after a long run of successes, about 5 retries in a row are allowed.
    ///   - tokenRatio: 0.1 by default: ten successes pay for one failure.
    public init(maximumTokens: Double = 10, tokenRatio: Double = 0.1) {
        self.maximumTokens = maximumTokens
        self.tokenRatio = tokenRatio
        self.tokens = maximumTokens
    }

    /// Records a request that needed no retry.
    public mutating func recordSuccess() {
        tokens = min(maximumTokens, tokens + tokenRatio)
    }

    /// Records a failure that could be retried.
    /// - Returns: Whether the budget allows the retry.
    public mutating func recordFailure() -> Bool {
        tokens = max(0, tokens - 1)
        return tokens > maximumTokens / 2
    }
}
