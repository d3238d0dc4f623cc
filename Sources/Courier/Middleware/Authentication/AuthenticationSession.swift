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
/// refresh is tried until the next ``signIn(_:)``. When it fails otherwise (offline, a 5xx), the
/// requests sent before it ended get their 401 and only requests sent later try again, so a burst
/// of refusals never causes a second refresh.
///
/// Waiting for a refresh is part of each call: a call whose task is cancelled, or whose timeout
/// passes, stops waiting at once (``CourierError/Kind/cancelled``, ``CourierError/Kind/timedOut``)
/// while the refresh goes on for the others.
///
/// Its `Mirror` (what `dump(_:)` and reflection-based loggers print) says whether a user is
/// signed in and when the token expires, never the tokens.
public final class AuthenticationSession: Sendable, CustomReflectable {
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

    /// What a request knew when its token was handed out (see ``RefreshCoordinator``).
    typealias Stamp = RefreshCoordinator.Stamp

    private struct State {
        var tokens: AuthTokens?
        var coordinator: RefreshCoordinator
        var waiters = RefreshWaiters()
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
    ///     authentication. It is called, once for however many requests are refused together,
    ///     whenever a request is refused with 401 or the access token is known to have expired,
    ///     whether or not the tokens hold a refresh token: it decides how to renew (a refresh
    ///     token, client credentials, a stored device key). A ``CourierError`` of kind
    ///     `unauthorized`, `forbidden` or `clientError` means the renewal was refused (the session
    ///     expires); other errors are transient.
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

    /// Whether a user is signed in, the tokens as ``AuthTokens`` shows them, and the refresh count.
    public var customMirror: Mirror {
        let (tokens, refreshCount) = state.withLock { ($0.tokens, $0.refreshCount) }
        return Mirror(self, children: ["signedIn": tokens != nil, "tokens": tokens as Any, "refreshCount": refreshCount], displayStyle: .class)
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

    /// The refresh decisions so far, for tests.
    var coordinator: RefreshCoordinator {
        state.withLock { $0.coordinator }
    }

    /// The access token to send and its stamp, renewing it first when it is known to have expired.
    /// - Parameters:
    ///   - timeout: How long to wait for a renewal.
    ///   - clock: What `timeout` is measured with.
    ///   - now: The wall-clock time, for the token's expiry date.
    /// - Returns: The token and the stamp to pass to ``renewed(after:timeout:)`` if it is refused;
    ///   `nil` when there is nothing to send.
    /// - Throws: ``CourierError/Kind/cancelled`` or ``CourierError/Kind/timedOut`` while waiting
    ///   for a renewal.
    func credentials(
        timeout: Duration,
        clock: ElapsedClock = .continuous,
        now: Date = Date()
    ) async throws(CourierError) -> (token: String, stamp: Stamp)? {
        let current = state.withLock { state in
            state.tokens.map { (tokens: $0, stamp: state.coordinator.stamp) }
        }
        guard let current else { return nil }
        if let expiresAt = current.tokens.expiresAt, expiresAt.timeIntervalSince(now) < expiryLeeway.seconds {
            return try await renewed(after: current.stamp, timeout: timeout, clock: clock)
        }
        return (current.tokens.accessToken, current.stamp)
    }

    /// A request whose token was handed out at `used` was refused: starts the one refresh or
    /// waits for the one under way.
    ///
    /// The wait belongs to the calling task: cancelling it, or `timeout` passing, ends the wait at
    /// once while the refresh goes on for the other requests.
    /// - Parameters:
    ///   - used: The stamp the refused token was handed out with.
    ///   - timeout: How long to wait for the refresh.
    ///   - clock: What `timeout` is measured with.
    /// - Returns: The token to replay the request with and its stamp, or `nil` when the request
    ///   should fail with its 401.
    /// - Throws: ``CourierError/Kind/cancelled`` when the task is cancelled while waiting,
    ///   ``CourierError/Kind/timedOut`` when `timeout` passes first.
    func renewed(after used: Stamp, timeout: Duration, clock: ElapsedClock = .continuous) async throws(CourierError) -> (token: String, stamp: Stamp)? {
        enum Next {
            case fail
            case replay(token: String, stamp: Stamp)
            case wait(UInt64, refreshing: (tokens: AuthTokens, number: Int)?)
        }
        let next = state.withLock { state -> Next in
            switch state.coordinator.unauthorized(used: used, canRefresh: state.tokens != nil) {
            case .fail:
                return .fail
            case .replay:
                guard let tokens = state.tokens else { return .fail }
                return .replay(token: tokens.accessToken, stamp: state.coordinator.stamp)
            case .refresh:
                guard let tokens = state.tokens else { return .fail }
                state.refreshCount += 1
                return .wait(state.waiters.add(), refreshing: (tokens, state.refreshCount))
            case .waitForRefresh:
                return .wait(state.waiters.add(), refreshing: nil)
            }
        }
        switch next {
        case .fail:
            return nil
        case .replay(let token, let stamp):
            return (token, stamp)
        case .wait(let id, let refreshing):
            // Unstructured: the refresh serves every waiter, so no single caller's cancellation
            // may end it.
            if let refreshing { Task { await self.runRefresh(from: refreshing.tokens, number: refreshing.number) } }
            switch await wait(for: id, timeout: timeout, clock: clock) {
            case .renewed(let token, let stamp):
                return (token, stamp)
            case .failed:
                return nil
            case .cancelled:
                throw CourierError(.cancelled, message: "Cancelled while waiting for a new token.")
            case .timedOut:
                throw CourierError(.timedOut, message: "No new token within \(timeout).")
            }
        }
    }

    /// Suspends until waiter `id` is settled: by the refresh ending, by the task's cancellation,
    /// or by `timeout`.
    private func wait(for id: UInt64, timeout: Duration, clock: ElapsedClock) async -> RefreshWaiters.Outcome {
        let timer = Task { [weak self] in
            guard (try? await clock.sleep(timeout)) != nil else { return }
            self?.settle(id, with: .timedOut)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A cancellation or timeout before this point was recorded by `settle` and is
                // handed over here.
                if let outcome = state.withLock({ $0.waiters.attach(id, continuation) }) {
                    continuation.resume(returning: outcome)
                }
            }
        } onCancel: {
            settle(id, with: .cancelled)
        }
    }

    private func settle(_ id: UInt64, with outcome: RefreshWaiters.Outcome) {
        state.withLock { $0.waiters.settle(id, with: outcome) }?.resume()
    }

    private func runRefresh(from tokens: AuthTokens, number: Int) async {
        let result: Result<AuthTokens, any Error>
        do {
            result = .success(try await refresher(tokens))
        } catch {
            result = .failure(error)
        }
        let (resumptions, renewed) = state.withLock { state -> ([RefreshWaiters.Resumption], AuthTokens?) in
            // A sign-in or sign-out meanwhile has settled the waiters and replaced the tokens.
            guard state.refreshCount == number, state.coordinator.phase == .refreshing else { return ([], nil) }
            switch result {
            case .success(let renewed):
                state.tokens = renewed
                state.coordinator.refreshFinished(.renewed)
                state.publish(.refreshed)
                let outcome = RefreshWaiters.Outcome.renewed(token: renewed.accessToken, stamp: state.coordinator.stamp)
                return (state.waiters.settleAll(with: outcome), renewed)
            case .failure(let error):
                let refused = [.unauthorized, .forbidden, .clientError].contains(CourierError(error).kind)
                state.coordinator.refreshFinished(refused ? .refused : .failed)
                if refused { state.publish(.expired) }
                return (state.waiters.settleAll(with: .failed), nil)
            }
        }
        if let renewed { try? store.save(renewed) }
        for resumption in resumptions { resumption.resume() }
    }

    private func update(_ tokens: AuthTokens?, event: Event, _ transition: (inout RefreshCoordinator) -> Void) {
        let resumptions = state.withLock { state in
            state.tokens = tokens
            transition(&state.coordinator)
            state.publish(event)
            // Requests waiting for a refresh replay with the new sign-in's token, or fail.
            let outcome = tokens.map { RefreshWaiters.Outcome.renewed(token: $0.accessToken, stamp: state.coordinator.stamp) }
            return state.waiters.settleAll(with: outcome ?? .failed)
        }
        for resumption in resumptions { resumption.resume() }
    }
}
