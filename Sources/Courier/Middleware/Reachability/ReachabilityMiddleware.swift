import HTTPTypes
import OpenAPIRuntime

/// Fails requests at once with ``CourierError/Kind/notConnected`` while the device has no network,
/// instead of letting each one wait for a connection timeout.
///
/// Requests to loopback hosts (`localhost`, `127.x.x.x`, `[::1]`) are always let through: they need
/// no network.
///
/// The platform's monitor is `NWPathMonitor` on Apple platforms but watchOS, where it stays
/// unsatisfied for apps that may not use low-level networking (Apple's TN3135): there every
/// request goes out, and a missing network is the transport's `notConnected`. Elsewhere the
/// network interfaces decide (``InterfaceConnectivityMonitor``).
///
/// ```swift
/// $0.middleware = [ReachabilityMiddleware()]   // NWPathMonitor on Apple platforms but watchOS, interfaces elsewhere
/// ```
public struct ReachabilityMiddleware: Middleware {
    /// Where the answer comes from.
    public let monitor: any ConnectivityMonitor
    /// Whether loopback hosts skip the check.
    public let exemptsLoopback: Bool

    /// Creates the middleware.
    /// - Parameters:
    ///   - monitor: The connectivity source; the platform's own by default.
    ///   - exemptsLoopback: Whether loopback hosts skip the check; `true` by default.
    public init(monitor: (any ConnectivityMonitor)? = nil, exemptsLoopback: Bool = true) {
        self.monitor = monitor ?? PlatformConnectivity.monitor()
        self.exemptsLoopback = exemptsLoopback
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        if !(exemptsLoopback && Self.isLoopback(request.authority)), await !monitor.isConnected() {
            throw CourierError(.notConnected, message: "The device is offline; the request was not sent.")
        }
        return try await next(request, body, context)
    }

    /// Whether an authority (`host[:port]`) names this machine.
    static func isLoopback(_ authority: String?) -> Bool {
        guard var host = authority?.lowercased() else { return false }
        if host.hasPrefix("[") {
            host = String(host.dropFirst().prefix { $0 != "]" })
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        let isLoopbackIPv4 = octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        return host == "localhost" || host.hasSuffix(".localhost") || isLoopbackIPv4 || host == "::1"
    }
}
