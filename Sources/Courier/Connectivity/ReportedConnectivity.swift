import Foundation

/// The latest path status a platform's monitor reported, and each change of it: what
/// ``PathConnectivityMonitor`` answers ``ConnectivityMonitor/isConnected()`` and
/// ``ConnectivityMonitor/changes()`` with, compiled and tested on every platform.
final class ReportedConnectivity: Sendable {
    private let connected = LockedState(true)
    private let broadcast = ConnectivityBroadcast()

    /// Connected until a monitor reports otherwise.
    init() {}

    /// Whether the last status reported lets requests go out; `true` before any report.
    var isConnected: Bool {
        connected.withLock { $0 }
    }

    /// Records `status`; a change of connectivity goes to every reader of ``changes()``.
    func report(_ status: PathStatus) {
        let now = status.isConnected
        let changed = connected.withLock { connected in
            defer { connected = now }
            return connected != now
        }
        if changed { broadcast.send(now) }
    }

    /// Each change of connectivity from now on.
    /// - Returns: A new stream for one reader.
    func changes() -> AsyncStream<Bool> {
        broadcast.stream()
    }
}
