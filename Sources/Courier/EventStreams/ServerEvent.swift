/// One server-sent event of a `text/event-stream`, its data decoded to `Payload`.
///
/// ```swift
/// for try await event in client.events(TickerAPI.ticks) {
///     print(event.id ?? "-", event.type, event.data.price)
/// }
/// ```
public struct ServerEvent<Payload: Sendable>: Sendable {
    /// The event's type: what its `event:` field named, `"message"` when it named none.
    public var type: String
    /// The event's `data:` lines, joined with line feeds and decoded as the endpoint's `Response`.
    public var data: Payload
    /// The last event ID when this event arrived: set by an `id:` field in this event or an
    /// earlier one, cleared by an empty `id:`. It is what a reconnection sends as `Last-Event-ID`.
    public var id: String?
    /// The reconnection delay the server asked for in this event's `retry:` field, if any.
    public var retry: Duration?

    /// Creates an event.
    /// - Parameters:
    ///   - type: The event type.
    ///   - data: The event's data.
    ///   - id: The last event ID.
    ///   - retry: The reconnection delay the event set.
    public init(type: String = "message", data: Payload, id: String? = nil, retry: Duration? = nil) {
        self.type = type
        self.data = data
        self.id = id
        self.retry = retry
    }
}

extension ServerEvent: Equatable where Payload: Equatable {}
