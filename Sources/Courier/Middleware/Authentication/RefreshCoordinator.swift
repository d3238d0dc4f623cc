/// Decides what a request refused with 401 does, so that many refusals at once cause exactly one
/// refresh: a pure state machine; ``AuthenticationSession`` carries out its actions.
///
/// Every set of tokens has a *generation*. A request remembers the generation it was sent with;
/// a 401 for an old generation means the tokens were renewed meanwhile, so the request is simply
/// replayed with the current ones.
struct RefreshCoordinator: Sendable, Equatable {
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

    private(set) var generation = 0
    private(set) var phase: Phase

    init(signedIn: Bool) {
        phase = signedIn ? .idle : .signedOut
    }

    /// A request sent with tokens of generation `used` was refused (or its token is known to be
    /// expired before sending).
    mutating func unauthorized(used: Int, canRefresh: Bool) -> Action {
        if used < generation && phase == .idle { return .replay }
        switch phase {
        case .refreshing:
            return .waitForRefresh
        case .expired, .signedOut:
            return .fail
        case .idle:
            guard canRefresh else { return .fail }
            phase = .refreshing
            return .refresh
        }
    }

    /// The refresh ended: with new tokens, after a transient failure (network, 5xx: the tokens may
    /// still be good, so a later 401 may try again), or refused by the server (session expired).
    enum RefreshResult: Sendable, Equatable {
        case renewed
        case failed
        case refused
    }

    mutating func refreshFinished(_ result: RefreshResult) {
        switch result {
        case .renewed:
            generation += 1
            phase = .idle
        case .failed:
            phase = .idle
        case .refused:
            phase = .expired
        }
    }

    /// New tokens from a sign-in.
    mutating func signedIn() {
        generation += 1
        phase = .idle
    }

    /// The user signed out.
    mutating func signedOut() {
        generation += 1
        phase = .signedOut
    }
}
