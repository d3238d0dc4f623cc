#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Says whether the device can reach a network at all, so requests fail at once when it cannot,
/// and when that changes, so that work waiting for a network (an offline queue) resumes.
///
/// ``ReachabilityMiddleware`` asks it before every request; answers should be cheap (cached).
/// Courier ships `PathConnectivityMonitor` (Apple platforms, `NWPathMonitor`, which reports every
/// change) and ``InterfaceConnectivityMonitor`` (everywhere: a look at the network interfaces,
/// which reports a change found by a bounded probe after a transport failure).
public protocol ConnectivityMonitor: Sendable {
    /// Whether a network path is available now.
    func isConnected() async -> Bool

    /// Each change of connectivity from now on: `true` when a network became available, `false`
    /// when it was lost. The stream ends when the task reading it is cancelled. By default it
    /// reports nothing.
    /// - Returns: A new stream for one reader.
    func changes() -> AsyncStream<Bool>

    /// Tells the monitor that a request failed without reaching the server, so that a monitor
    /// that cannot watch the network itself looks again for a while. By default it does nothing.
    func transportFailed()
}

extension ConnectivityMonitor {
    /// Reports nothing; the stream ends when its reader is cancelled.
    /// - Returns: A stream that yields no value.
    public func changes() -> AsyncStream<Bool> {
        AsyncStream { _ in }
    }

    /// Does nothing.
    public func transportFailed() {}
}

extension ConnectivityMonitor where Self == InterfaceConnectivityMonitor {
    /// The interface check, re-evaluated at most once a second.
    public static var interfaces: InterfaceConnectivityMonitor { InterfaceConnectivityMonitor() }
}

/// Connectivity from the network interfaces: connected when an interface other than loopback is
/// up, running, and has an IPv4 or IPv6 address. Re-checked at most once per ``cacheDuration``.
///
/// Nothing on Linux tells a process when an interface comes up, so ``changes()`` reports what a
/// bounded probe finds: after ``transportFailed()``, when no interface is up, it looks again after
/// 1, 2, 4, … seconds, at most ``probeLimit`` times, and reports `true` when one came up.
public final class InterfaceConnectivityMonitor: ConnectivityMonitor {
    /// How long an answer is reused.
    public let cacheDuration: Duration
    /// How many times a probe looks before it gives up; 8 by default (about four minutes).
    public let probeLimit: Int
    private let cache = LockedState<(answer: Bool, at: ContinuousClock.Instant)?>(nil)
    private let broadcast = ConnectivityBroadcast()
    private let probing = LockedState(false)

    /// Creates the monitor.
    /// - Parameters:
    ///   - cacheDuration: How long an answer is reused; one second by default.
    ///   - probeLimit: How many times a probe after a transport failure looks; 8 by default.
    public init(cacheDuration: Duration = .seconds(1), probeLimit: Int = 8) {
        self.cacheDuration = cacheDuration
        self.probeLimit = probeLimit
    }

    /// Whether an interface other than loopback is up.
    /// - Returns: The answer, at most ``cacheDuration`` old.
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

extension InterfaceConnectivityMonitor {
    /// What the probes after transport failures find: `true` when an interface came up.
    /// - Returns: A new stream for one reader.
    public func changes() -> AsyncStream<Bool> {
        broadcast.stream()
    }

    /// Starts a probe, unless one is running: when no interface is up now, it looks again after
    /// 1, 2, 4, … seconds, at most ``probeLimit`` times, and reports the first that is.
    public func transportFailed() {
        let started = probing.withLock { probing in
            defer { probing = true }
            return !probing
        }
        guard started else { return }
        guard !Self.hasActiveInterface() else {
            probing.withLock { $0 = false }
            return
        }
        Task { [broadcast, probing, probeLimit] in
            defer { probing.withLock { $0 = false } }
            for attempt in 0..<max(probeLimit, 0) {
                try? await Task.sleep(for: .seconds(1 << min(attempt, 6)))
                if Self.hasActiveInterface() {
                    broadcast.send(true)
                    return
                }
            }
        }
    }
}
