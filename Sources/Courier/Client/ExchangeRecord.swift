import Foundation

/// What one call learned on its way, for the caller and for middleware that must know where a
/// response came from: the URL of the last response (after redirects) and the attempts made.
final class ExchangeRecord: Sendable {
    private struct State {
        var target: String?
        var origin: URL?
        var attempts = 0
    }

    private let state = LockedState(State())

    /// A response arrived for `target` (a path with query) below `origin` in attempt `attempt`.
    func delivered(target: String?, origin: URL, attempt: Int) {
        state.withLock { state in
            state.target = target
            state.origin = origin
            state.attempts = max(state.attempts, attempt)
        }
    }

    /// The URL of the last response, after redirects.
    var url: URL? {
        let (origin, target) = state.withLock { ($0.origin, $0.target) }
        guard let origin else { return nil }
        return URL(string: origin.absoluteString + (target ?? "/"))
    }

    /// Scheme, host and port of the last response.
    var origin: URL? { state.withLock { $0.origin } }

    /// How many attempts the call made (at least 1 once a response arrived).
    var attempts: Int { state.withLock { $0.attempts } }
}
