/// How ``Client/events(_:options:)`` reads a stream of server-sent events: its limits, its
/// reconnection and its idle timeout.
///
/// ```swift
/// var options = EventStreamOptions()
/// options.idleTimeout = .seconds(30)     // the server sends a comment at least this often
/// options.maximumReconnectAttempts = 10
/// let ticks = client.events(TickerAPI.ticks, options: options)
/// ```
public struct EventStreamOptions: Sendable {
    /// The largest event (all its lines, in bytes as received) accepted; a larger one ends the stream with
    /// ``CourierError/Kind/streamElementTooLarge``. 1 MiB by default.
    public var maximumEventSize = 1 << 20
    /// Whether a dropped connection is opened again, sending the last event ID as `Last-Event-ID`.
    /// On by default; never for a request that is not idempotent (a POST without an
    /// `Idempotency-Key`).
    public var reconnects = true
    /// The delay before reconnecting until the server sends `retry:`, 3 seconds by default.
    public var reconnectDelay: Duration = .seconds(3)
    /// Added to the delay before each reconnection, growing with each attempt that fails in a row,
    /// with full jitter, so that many clients do not come back at once.
    public var backoff = Backoff(base: .milliseconds(250), maximum: .seconds(30))
    /// The most reconnection attempts in a row without a successful connection; after that the
    /// stream ends with the last error. A successful connection starts the count again.
    public var maximumReconnectAttempts = 5
    /// How long a connection may go without a byte (not even a comment) before it is taken for
    /// dead, closed and reconnected; `nil` for no limit. 60 seconds by default.
    public var idleTimeout: Duration? = .seconds(60)
    /// Called with each comment line (after its `:`), for servers that say something in them.
    public var onComment: (@Sendable (String) -> Void)?

    /// The default options.
    public init() {}
}
