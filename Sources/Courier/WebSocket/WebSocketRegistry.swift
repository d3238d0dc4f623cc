/// The open sockets of a client, so that ``Client/cancelAll()`` closes them.
final class WebSocketRegistry: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var sessions: [UInt64: WebSocketSession] = [:]
    }

    private let state = LockedState(State())

    /// A number for a socket about to open.
    func reserveID() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Remembers an open socket until ``remove(_:)``.
    func add(_ session: WebSocketSession, id: UInt64) {
        state.withLock { $0.sessions[id] = session }
    }

    /// Forgets a socket that ended.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.sessions.removeValue(forKey: id) }
    }

    /// Closes every open socket with 1001.
    func closeAll() {
        let sessions = state.withLock { state in
            defer { state.sessions = [:] }
            return Array(state.sessions.values)
        }
        for session in sessions { session.closeInBackground(.goingAway, reason: "") }
    }

    /// How many sockets are open.
    var count: Int {
        state.withLock { $0.sessions.count }
    }
}
