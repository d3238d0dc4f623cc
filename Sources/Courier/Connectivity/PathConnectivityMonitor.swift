#if canImport(Network)
import Foundation
import Network

/// Connectivity from `NWPathMonitor`: connected unless the current path is unsatisfied (a path that
/// requires a connection comes up for a request); every change of that is reported by ``changes()``.
///
/// ```swift
/// $0.middleware = [ReachabilityMiddleware(monitor: PathConnectivityMonitor())]
/// ```
// @unchecked: `monitor` is only started in `init` and cancelled in `deinit`; not every SDK marks it `Sendable`.
public final class PathConnectivityMonitor: ConnectivityMonitor, @unchecked Sendable {
    private let monitor = NWPathMonitor()
    private let reported = ReportedConnectivity()

    /// Creates the monitor and starts watching the path.
    public init() {
        monitor.pathUpdateHandler = { [reported] path in reported.report(PathStatus(path.status)) }
        monitor.start(queue: DispatchQueue(label: "Courier.PathConnectivityMonitor"))
    }

    deinit { monitor.cancel() }

    /// Whether the current path is usable: satisfied, or brought up by a connection.
    /// - Returns: The path monitor's latest answer.
    public func isConnected() async -> Bool { reported.isConnected }

    /// Each change of the path's status.
    /// - Returns: A new stream for one reader.
    public func changes() -> AsyncStream<Bool> { reported.changes() }
}

extension PathStatus {
    /// The status of a path `NWPathMonitor` reports; a status it adds later is not taken for offline.
    init(_ status: NWPath.Status) {
        switch status {
        case .unsatisfied: self = .unsatisfied
        case .requiresConnection: self = .requiresConnection
        case .satisfied: self = .satisfied
        @unknown default: self = .satisfied
        }
    }
}
#endif
