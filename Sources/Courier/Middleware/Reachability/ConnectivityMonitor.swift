#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Says whether the device can reach a network at all, so requests fail at once when it cannot.
///
/// ``ReachabilityMiddleware`` asks it before every request; answers should be cheap (cached).
/// Courier ships `PathConnectivityMonitor` (Apple platforms, `NWPathMonitor`) and
/// ``InterfaceConnectivityMonitor`` (everywhere: a look at the network interfaces).
public protocol ConnectivityMonitor: Sendable {
    /// Whether a network path is available now.
    func isConnected() async -> Bool
}

extension ConnectivityMonitor where Self == InterfaceConnectivityMonitor {
    /// The interface check, re-evaluated at most once a second.
    public static var interfaces: InterfaceConnectivityMonitor { InterfaceConnectivityMonitor() }
}

/// Connectivity from the network interfaces: connected when an interface other than loopback is
/// up, running, and has an IPv4 or IPv6 address. Re-checked at most once per ``cacheDuration``.
public final class InterfaceConnectivityMonitor: ConnectivityMonitor {
    /// How long an answer is reused.
    public let cacheDuration: Duration
    private let cache = LockedState<(answer: Bool, at: ContinuousClock.Instant)?>(nil)

    /// Creates the monitor.
    /// - Parameter cacheDuration: How long an answer is reused; one second by default.
    public init(cacheDuration: Duration = .seconds(1)) {
        self.cacheDuration = cacheDuration
    }

    public func isConnected() async -> Bool {
        let now = ContinuousClock.now
        if let cached = cache.withLock({ $0 }), now - cached.at < cacheDuration { return cached.answer }
        let answer = Self.hasActiveInterface()
        cache.withLock { $0 = (answer, now) }
        return answer
    }

    /// Walks `getifaddrs(3)`.
    static func hasActiveInterface() -> Bool {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return true }  // unknown: do not block requests
        defer { freeifaddrs(first) }
        let required = UInt32(IFF_UP) | UInt32(IFF_RUNNING)
        var current: UnsafeMutablePointer<ifaddrs>? = first
        while let interface = current?.pointee {
            defer { current = interface.ifa_next }
            let flags = UInt32(interface.ifa_flags)
            guard flags & required == required, flags & UInt32(IFF_LOOPBACK) == 0,
                let address = interface.ifa_addr
            else { continue }
            let family = Int32(address.pointee.sa_family)
            if family == AF_INET || family == AF_INET6 { return true }
        }
        return false
    }
}
