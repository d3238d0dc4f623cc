/// A monitor that always says connected and reports no change: the default where no monitor can
/// see the network (watchOS, whose `NWPathMonitor` stays unsatisfied for apps that may not use
/// low-level networking, TN3135). Requests go out, and a missing network is the transport's
/// ``CourierError/Kind/notConnected``.
package struct AssumedConnectivity: ConnectivityMonitor {
    package init() {}

    package func isConnected() async -> Bool { true }
}
