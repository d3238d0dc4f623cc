/// What a ``LiveWebSocket`` goes through, for the app to show or log.
public enum WebSocketEvent: Sendable, Hashable {
    /// Opening the socket: try 1 is the first opening, later tries follow a drop.
    case connecting(attempt: Int)
    /// The socket is open, and the resubscribe hook has run.
    case open
    /// The socket ended and will be opened again after `delay`; `attempt` counts the tries in a row.
    case reconnecting(attempt: Int, delay: Duration)
    /// The live socket ended for good: `nil` when the app closed it, otherwise the last error.
    case closed(CourierError.Kind?)
}
