import Courier

/// A `ConnectivityMonitor` the test switches: offline or online, each switch reported to
/// every reader of ``changes()``, as a device's network monitor reports a lift or a tunnel.
///
/// ```swift
/// let network = StubConnectivityMonitor(connected: false)
/// let live = client.liveWebSocket(Request<Void>(.get, "live"), connectivity: network)
/// network.set(connected: true)   // the live socket reconnects now, not after its back-off
/// ```
public final class StubConnectivityMonitor: ConnectivityMonitor {
    private let connected: LockedState<Bool>
    private let broadcast = ConnectivityBroadcast()

    /// Creates a monitor.
    /// - Parameter connected: Whether a network is available at first; `true` by default.
    public init(connected: Bool = true) {
        self.connected = LockedState(connected)
    }

    /// Whether the test last said a network is available.
    /// - Returns: The current state.
    public func isConnected() async -> Bool {
        connected.withLock { $0 }
    }

    /// Each switch from now on, until the reading task is cancelled.
    /// - Returns: A new stream for one reader.
    public func changes() -> AsyncStream<Bool> {
        broadcast.stream()
    }

    /// Switches the network on or off and tells every reader of ``changes()``.
    /// - Parameter connected: Whether a network is available from now on.
    public func set(connected: Bool) {
        self.connected.withLock { $0 = connected }
        broadcast.send(connected)
    }
}
