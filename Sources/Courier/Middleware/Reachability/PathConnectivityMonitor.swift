#if canImport(Network)
import Foundation
import Network

/// Connectivity from `NWPathMonitor`: connected while the current path is satisfied.
///
/// ```swift
/// $0.middleware = [ReachabilityMiddleware(monitor: PathConnectivityMonitor())]
/// ```
public final class PathConnectivityMonitor: ConnectivityMonitor {
    private let monitor = NWPathMonitor()
    private let status = LockedState(true)

    /// Creates the monitor and starts watching the path.
    public init() {
        monitor.pathUpdateHandler = { [status] path in
            status.withLock { $0 = path.status == .satisfied }
        }
        monitor.start(queue: DispatchQueue(label: "Courier.PathConnectivityMonitor"))
    }

    deinit {
        monitor.cancel()
    }

    public func isConnected() async -> Bool {
        status.withLock { $0 }
    }
}
#endif
