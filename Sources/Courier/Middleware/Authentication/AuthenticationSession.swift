import Foundation

/// The signed-in user's tokens, shared by every client that talks to the same identity: it hands
/// out the current access token and renews it exactly once however many requests are refused at
/// the same time.
///
/// ```swift
/// let session = AuthenticationSession(store: FileTokenStore(url: tokensFile)) { expired in
///     let renewed = try await auth.send(AuthAPI.refresh(refreshToken: expired.refreshToken ?? ""))
///     return AuthTokens(accessToken: renewed.token, refreshToken: renewed.refreshToken)
/// }
/// try session.signIn(AuthTokens(accessToken: login.token, refreshToken: login.refreshToken))
/// let social = Client(baseURL: socialURL) {
///     $0.middleware = [AuthenticationMiddleware(session, scheme: .jwt)]
/// }
/// for await event in session.events where event == .expired { showLogin() }
/// ```
///
/// When the refresh is refused, every waiting request fails with
/// ``CourierError/Kind/unauthorized``, ``events`` delivers ``Event/expired``, and no further
/// refresh is tried until the next ``signIn(_:)``.
public final class AuthenticationSession: Sendable {
    /// Something that happened to the session.
    public enum Event: Sendable, Equatable {
        /// New tokens from a refresh.
        case refreshed
        /// The refresh was refused: the user must sign in again.
        case expired
        /// New tokens from ``AuthenticationSession/signIn(_:)``.
        case signedIn
        /// ``AuthenticationSession/signOut()`` was called.
        case signedOut
    }

    private struct State {
        var tokens: AuthTokens?
        var coordinator: RefreshCoordinator
        var refresh: Task<Void, Never>?
        var refreshCount = 0
        var nextSubscriberID = 0
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]

        func publish(_ event: Event) {
            for subscriber in subscribers.values { subscriber.yield(event) }
        }
    }

    private let state: LockedState<State>
    private let store: any TokenStore
    private let refresher: @Sendable (AuthTokens) async throws -> AuthTokens
    /// Tokens expiring sooner than this are renewed before they are sent: enough for a request to
    /// arrive, short enough not to renew short-lived tokens on every request.
    let expiryLeeway: Duration = .seconds(1)

    /// Creates a session, loading any tokens the store holds (a store that cannot be read counts as
    /// signed out).
    /// - Parameters:
    ///   - store: Where tokens are kept; in memory by default.
    ///   - refresh: Exchanges the current tokens for new ones, usually with a call that opts out of
    ///     authentication. A ``CourierError`` of kind `unauthorized`, `forbidden` or `clientError`
    ///     means the refresh token was refused (the session expires); other errors are transient.
    public init(
        store: any TokenStore = InMemoryTokenStore(),
        refresh: @escaping @Sendable (AuthTokens) async throws -> AuthTokens
    ) {
        let tokens = try? store.load()
        self.store = store
        self.refresher = refresh
        self.state = LockedState(State(tokens: tokens ?? nil, coordinator: RefreshCoordinator(signedIn: (tokens ?? nil) != nil)))
    }

    /// The current tokens, or `nil` when signed out.
    public var tokens: AuthTokens? {
        state.withLock { $0.tokens }
    }

    /// How many refreshes have run.
    public var refreshCount: Int {
        state.withLock { $0.refreshCount }
    }

    /// Stores new tokens after a login; requests from now on use them.
    /// - Throws: When the store cannot save them (the session uses them anyway).
    public func signIn(_ tokens: AuthTokens) throws {
        update(tokens, event: .signedIn) { $0.signedIn() }
        try store.save(tokens)
    }

    /// Forgets the tokens; requests go without credentials until the next sign-in.
    /// - Throws: When the store cannot delete them.
    public func signOut() throws {
        update(nil, event: .signedOut) { $0.signedOut() }
        try store.save(nil)
    }

    /// Sign-ins, refreshes, expiry and sign-outs from now on. Each access returns a new stream.
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let id = state.withLock { state in
            state.nextSubscriberID += 1
            state.subscribers[state.nextSubscriberID] = continuation
            return state.nextSubscriberID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The access token to send and its generation, renewing it first when it is known to have
    /// expired. `nil` when there is nothing to send.
    func credentials() async -> (token: String, generation: Int)? {
        let current = state.withLock { state in
            state.tokens.map { (tokens: $0, generation: state.coordinator.generation) }
        }
        guard let current else { return nil }
        if let expiresAt = current.tokens.expiresAt, expiresAt.timeIntervalSinceNow < expiryLeeway.seconds {
            return await renewed(after: current.generation)
        }
        return (current.tokens.accessToken, current.generation)
    }

    /// A request sent with generation `used` was refused. Returns the token to replay it with, or
    /// `nil` when it should fail.
    func renewed(after used: Int) async -> (token: String, generation: Int)? {
        let (action, refresh) = state.withLock { state -> (RefreshCoordinator.Action, Task<Void, Never>?) in
            let action = state.coordinator.unauthorized(used: used, canRefresh: state.tokens?.refreshToken != nil)
            if action == .refresh, let tokens = state.tokens {
                state.refreshCount += 1
                state.refresh = Task { await self.runRefresh(from: tokens) }
            }
            return (action, state.refresh)
        }
        switch action {
        case .fail:
            return nil
        case .replay:
            break
        case .refresh, .waitForRefresh:
            await refresh?.value
        }
        return state.withLock { state in
            guard state.coordinator.phase == .idle, state.coordinator.generation > used, let tokens = state.tokens else {
                return nil
            }
            return (tokens.accessToken, state.coordinator.generation)
        }
    }

    private func runRefresh(from tokens: AuthTokens) async {
        do {
            let renewed = try await refresher(tokens)
            update(renewed, event: .refreshed) { $0.refreshFinished(.renewed) }
            try? store.save(renewed)
        } catch {
            let refused = [.unauthorized, .forbidden, .clientError].contains(CourierError(error).kind)
            state.withLock { state in
                state.coordinator.refreshFinished(refused ? .refused : .failed)
                state.refresh = nil
                if refused { state.publish(.expired) }
            }
        }
    }

    private func update(_ tokens: AuthTokens?, event: Event, _ transition: (inout RefreshCoordinator) -> Void) {
        state.withLock { state in
            state.tokens = tokens
            transition(&state.coordinator)
            state.refresh = nil
            state.publish(event)
        }
    }
}
