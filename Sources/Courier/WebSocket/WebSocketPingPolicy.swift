/// How a WebSocket checks that the server is still there: a ping every `interval`, and the socket
/// ends with ``WebSocketFailure/Reason/pingTimeout`` when `missedPongs` pings in a row go
/// unanswered for `timeout` each.
///
/// ```swift
/// configuration.pingPolicy = .every(.seconds(10), timeout: .seconds(3), missedPongs: 2)
/// configuration.pingPolicy = .off
/// ```
public struct WebSocketPingPolicy: Sendable, Hashable {
    /// Time between the answer (or the timeout) of one ping and the next ping; `nil` when off.
    public let interval: Duration?
    /// How long a ping waits for its pong.
    public let timeout: Duration
    /// How many unanswered pings in a row end the socket; at least 1.
    public let missedPongs: Int

    /// No pings: a connection that dies silently is noticed only when a send fails.
    public static let off = WebSocketPingPolicy(interval: nil, timeout: .zero, missedPongs: 1)

    /// Pings every `interval`.
    /// - Parameters:
    ///   - interval: Time between pings.
    ///   - timeout: How long each ping waits for its pong; 10 s by default.
    ///   - missedPongs: How many unanswered pings in a row end the socket; 1 by default.
    /// - Returns: The policy.
    public static func every(_ interval: Duration, timeout: Duration = .seconds(10), missedPongs: Int = 1) -> WebSocketPingPolicy {
        WebSocketPingPolicy(interval: interval, timeout: timeout, missedPongs: max(1, missedPongs))
    }

    /// The longest a dead connection goes unnoticed: every missed ping's interval and timeout.
    public var detectionBound: Duration? {
        interval.map { ($0 + timeout) * missedPongs }
    }
}

/// The ping decision, without a clock or a socket: count what was answered, say when to give up.
struct PingMonitor: Sendable {
    let policy: WebSocketPingPolicy
    private(set) var missed = 0
    private var pongsSeen = 0
    private var pongsAtPing = 0

    init(policy: WebSocketPingPolicy) {
        self.policy = policy
    }

    /// A pong arrived (answering any ping: RFC 6455 lets a pong answer the latest only).
    mutating func pongReceived() {
        pongsSeen += 1
    }

    /// A ping is about to go out.
    mutating func pingSent() {
        pongsAtPing = pongsSeen
    }

    /// The ping's timeout passed: whether the connection counts as dead now.
    mutating func timeoutPassed() -> Bool {
        if pongsSeen > pongsAtPing {
            missed = 0
            return false
        }
        missed += 1
        return missed >= policy.missedPongs
    }
}
