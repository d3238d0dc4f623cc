import Foundation

/// What one call learns on its way: where its last response came from (after redirects) and how
/// many attempts it made.
///
/// The client keeps one per call and fills it in as responses arrive; middleware reads it from
/// ``MiddlewareContext/record`` (an authentication step, for one, refreshes a token only for a
/// 401 from its own origin), and ``Client/response(for:)`` reports it.
public final class ExchangeRecord: Sendable {
    private struct State {
        var target: String?
        var origin: URL
        var attempts = 0
    }

    private let state: LockedState<State>

    /// A record for a call to `origin`, before any response.
    package init(origin: URL) {
        state = LockedState(State(origin: origin))
    }

    /// A response arrived for `target` (a path with query) below `origin` in attempt `attempt`.
    func delivered(target: String?, origin: URL, attempt: Int) {
        state.withLock { state in
            state.target = target
            state.origin = origin
            state.attempts = max(state.attempts, attempt)
        }
    }

    /// The URL of the last response, after redirects; `nil` before any response.
    public var url: URL? {
        let (origin, target) = state.withLock { ($0.origin, $0.target) }
        guard let target else { return nil }
        return URL(string: origin.absoluteString + target)
    }

    /// Scheme, host and port of the last response; the call's own before any response.
    public var origin: URL { state.withLock { $0.origin } }

    /// How many attempts the call made: 0 before any response, then at least 1.
    public var attempts: Int { state.withLock { $0.attempts } }
}
