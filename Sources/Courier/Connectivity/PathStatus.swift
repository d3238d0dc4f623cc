/// What `NWPathMonitor` says of the current path, in Courier's words, so that what counts as
/// offline is decided (and tested) on every platform.
enum PathStatus: Sendable, Equatable {
    /// The path can send data now.
    case satisfied
    /// The path is not available (no network, or prohibited by policy).
    case unsatisfied
    /// The path is down, but a new connection may bring it up: VPN on demand, or a cellular
    /// interface that wakes for traffic.
    case requiresConnection

    /// Whether requests should go out: every status but ``unsatisfied``, since a request is what
    /// brings up a path that requires a connection.
    var isConnected: Bool { self != .unsatisfied }
}
