/// The connectivity monitor a client and an offline queue use unless they are given one:
/// `NWPathMonitor`'s path on Apple platforms but watchOS, where it stays unsatisfied for apps that
/// may not use low-level networking (Apple's TN3135), so requests go out and a missing network is
/// the transport's ``CourierError/Kind/notConnected``; the network interfaces elsewhere
/// (``InterfaceConnectivityMonitor``).
package enum PlatformConnectivity {
    /// A new monitor of the platform's kind.
    package static func monitor() -> any ConnectivityMonitor {
        #if os(watchOS)
        AssumedConnectivity()
        #elseif canImport(Network)
        PathConnectivityMonitor()
        #else
        InterfaceConnectivityMonitor()
        #endif
    }
}
