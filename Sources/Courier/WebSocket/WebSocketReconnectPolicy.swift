/// When and how often a ``LiveWebSocket`` opens its socket again: exponential backoff with
/// jitter, a maximum number of tries in a row, and a reset once a socket stayed open for
/// ``stablePeriod``.
///
/// ```swift
/// var policy = WebSocketReconnectPolicy()
/// policy.initialDelay = .seconds(1)
/// policy.maximumAttempts = 5
/// ```
///
/// A socket is never opened again after a normal close (1000) from either side, after a 4xx
/// handshake (a 401 has already had its token refresh by ``AuthenticationMiddleware``), or after
/// the server broke the protocol or a size limit: those would fail the same way again.
public struct WebSocketReconnectPolicy: Sendable, Hashable {
    /// The wait before the first new try. 500 ms by default.
    public var initialDelay: Duration = .milliseconds(500)
    /// The longest wait between tries. 30 s by default.
    public var maximumDelay: Duration = .seconds(30)
    /// How much each wait grows. 2 by default.
    public var multiplier = 2.0
    /// How much of each wait is random, from 0 (none) to 1: a wait is drawn between
    /// `(1 - jitter)` and 1 times its exponential value. 0.2 by default.
    public var jitter = 0.2
    /// How many tries in a row may fail before the live socket ends with the last error. 10 by
    /// default; 0 never reconnects.
    public var maximumAttempts = 10
    /// How long a socket must stay open for the count of tries to start again from 1. 30 s by default.
    public var stablePeriod: Duration = .seconds(30)

    /// The defaults.
    public init() {}

    /// A policy that never opens the socket again.
    public static var never: WebSocketReconnectPolicy {
        var policy = WebSocketReconnectPolicy()
        policy.maximumAttempts = 0
        return policy
    }

    /// The wait before try `attempt` (1 for the first new try).
    /// - Parameters:
    ///   - attempt: The try, from 1.
    ///   - random: A number in `0..<1`.
    /// - Returns: The wait.
    public func delay(attempt: Int, random: Double) -> Duration {
        let exponent = Double(max(0, attempt - 1))
        let base = min(Self.seconds(initialDelay) * Self.power(multiplier, exponent), Self.seconds(maximumDelay))
        let spread = min(max(jitter, 0), 1)
        let seconds = base * (1 - spread * min(max(random, 0), 1))
        return .nanoseconds(Int64(max(0, seconds) * 1_000_000_000))
    }

    /// Whether a socket that ended with `error` (`nil`: the app closed it) is opened again.
    /// - Parameter error: How the socket ended, or why it did not open.
    /// - Returns: `false` after a normal close, a 4xx handshake, a protocol violation or a size
    ///   limit; `true` after a drop, a close with another code, a ping timeout, a 5xx handshake, or
    ///   a connection that could not be made.
    public static func reconnects(after error: CourierError?) -> Bool {
        guard let error else { return false }
        guard let failure = error.webSocket else {
            return [.notConnected, .timedOut, .transportFailed].contains(error.kind)
        }
        switch failure.reason {
        case .closedByServer: return failure.closeCode != .normalClosure
        case .pingTimeout, .notConnected: return true
        case .handshakeRefused: return (error.status?.code ?? 0) >= 500
        default: return false
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func power(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var count = 0.0
        while count < exponent && result < 1e9 {
            result *= base
            count += 1
        }
        return result
    }
}
