/// Decides what a request refused with 401 does, so that many refusals at once cause exactly one
/// refresh: a pure state machine; ``AuthenticationSession`` carries out its actions.
///
/// Every request remembers the ``Stamp`` of the moment its token was handed out: which set of
/// tokens (the generation) and how many refreshes had failed by then. A 401 for an old generation
/// means the tokens were renewed meanwhile, so the request is simply replayed with the current
/// ones; a 401 for a request sent before a refresh failed is delivered, because that refresh
/// already tried what another one would (otherwise requests still in flight during a failed
/// refresh would each start one more).
struct RefreshCoordinator: Sendable, Equatable {
    /// What a request knew when its token was handed out.
    struct Stamp: Sendable, Hashable {
        /// Which set of tokens: one more after every renewal, sign-in and sign-out.
        var generation: Int
        /// How many refreshes had failed transiently.
        var failedRefreshes: Int
    }

    enum Phase: Sendable, Equatable {
        /// Tokens in use; nothing happening.
        case idle
        /// One refresh under way; other refused requests wait for it.
        case refreshing
        /// The refresh token was refused: nothing is sent with credentials until the next sign-in.
        case expired
        /// Nobody is signed in.
        case signedOut
    }

    enum Action: Sendable, Equatable {
        /// Start the one refresh; the caller then waits for it like the others.
        case refresh
        /// Wait for the refresh under way, then replay.
        case waitForRefresh
        /// Replay now with the current tokens, which are newer than the refused ones.
        case replay
        /// Give up: deliver the 401.
        case fail
    }

    /// The refresh ended: with new tokens, after a transient failure (network, 5xx: the tokens may
    /// still be good, so a 401 for a request sent later may try again), or refused by the server
    /// (session expired).
    enum RefreshResult: Sendable, Equatable {
        case renewed
        case failed
        case refused
    }

    private(set) var stamp = Stamp(generation: 0, failedRefreshes: 0)
    private(set) var phase: Phase

    init(signedIn: Bool) {
        phase = signedIn ? .idle : .signedOut
    }

    /// The generation of the current tokens.
    var generation: Int { stamp.generation }

    /// A request whose token was handed out at `used` was refused (or its token is known to be
    /// expired before sending).
    /// - Parameters:
    ///   - used: The stamp the request's token was handed out with.
    ///   - canRefresh: Whether there are tokens to renew (the refresh closure decides how).
    /// - Returns: What the request does next.
    mutating func unauthorized(used: Stamp, canRefresh: Bool) -> Action {
        switch phase {
        case .refreshing:
            return .waitForRefresh
        case .expired, .signedOut:
            return .fail
        case .idle:
            if used.generation < stamp.generation { return .replay }
            // A refresh failed after this request was sent: it was in flight during that refresh
            // and would only repeat it.
            if used.failedRefreshes < stamp.failedRefreshes { return .fail }
            guard canRefresh else { return .fail }
            phase = .refreshing
            return .refresh
        }
    }

    /// The refresh under way ended.
    /// - Parameter result: How it ended.
    mutating func refreshFinished(_ result: RefreshResult) {
        guard phase == .refreshing else { return }
        switch result {
        case .renewed:
            stamp.generation += 1
            phase = .idle
        case .failed:
            stamp.failedRefreshes += 1
            phase = .idle
        case .refused:
            phase = .expired
        }
    }

    /// New tokens from a sign-in; a refresh under way no longer matters.
    mutating func signedIn() {
        stamp.generation += 1
        phase = .idle
    }

    /// The user signed out.
    mutating func signedOut() {
        stamp.generation += 1
        phase = .signedOut
    }
}
