import Foundation
import HTTPTypes

extension Client {
    /// Opens a stream of server-sent events, each event's data decoded as the endpoint's
    /// `Response`; the connection opens when iteration starts.
    ///
    /// ```swift
    /// enum TickerAPI {
    ///     static var ticks: Request<Tick> { Request(.get, "ticker") }
    /// }
    ///
    /// for try await event in client.events(TickerAPI.ticks) {
    ///     print(event.id ?? "-", event.data.price)
    /// }
    /// ```
    /// See ``EventStream`` for how it reconnects, and ``EventStreamOptions`` for its limits.
    /// - Parameters:
    ///   - endpoint: The call that opens the stream; its `Response` is one event's data (`Data`
    ///     for the text as it came).
    ///   - options: Limits, reconnection and the idle timeout.
    /// - Returns: The events, as an `AsyncSequence` whose errors are ``CourierError``s.
    public func events<E: Endpoint>(_ endpoint: E, options: EventStreamOptions = EventStreamOptions()) -> EventStream<E.Response> {
        let request = endpoint.request
        let configuration = self.configuration
        let decoding = request.decoding
        let decoder = ResponseJSONDecoder(for: request, configuration: configuration)
        return EventStream(
            connect: { lastEventID async throws(CourierError) in
                var connection = request.header(.accept, "text/event-stream")
                if let lastEventID { connection = connection.header(.lastEventID, lastEventID) }
                return try await self.stream(connection)
            },
            decode: { data, response in try decoding.decode(Data(data.utf8), response, decoder) },
            options: options,
            reconnects: options.reconnects && Self.isRepeatable(request.method, request.headerFields),
            clock: configuration.elapsedClock,
            random: { Double.random(in: 0..<1) }
        )
    }

    /// Whether sending a request of `method` with `fields` twice does no more than once.
    static func isRepeatable(_ method: HTTPRequest.Method, _ fields: HTTPFields) -> Bool {
        RetryPolicy.isRepeatable(HTTPRequest(method: method, scheme: nil, authority: nil, path: nil, headerFields: fields))
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`: the last event a server-sent event stream delivered, sent on reconnection.
    public static var lastEventID: Self { Self("Last-Event-ID")! }
}
