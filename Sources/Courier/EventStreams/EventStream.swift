import Foundation
import HTTPTypes

/// Server-sent events as an `AsyncSequence` of typed events, reconnecting as the HTML standard
/// says: from ``Client/events(_:options:)``.
///
/// ```swift
/// for try await event in client.events(TickerAPI.ticks) {
///     show(event.data)
/// }
/// ```
/// Each connection goes through the client's middleware (a refreshed token on reconnect, logging,
/// metrics). The request's timeout covers the response head only; after that
/// ``EventStreamOptions/idleTimeout`` ends a connection that has gone silent. A dropped connection
/// is opened again after the server's `retry:` delay plus a backoff with jitter, sending
/// `Last-Event-ID`. A 204 ends the stream; another status, or a `Content-Type` other than
/// `text/event-stream`, ends it with an error, without reconnecting. When the consumer stops
/// iterating, or its task is cancelled, the connection is closed and never reopened.
///
/// A stream that does not reconnect (a POST without `Idempotency-Key`, or
/// ``EventStreamOptions/reconnects`` off) ends without an error when the server ends its body,
/// which is how many APIs say a stream is complete; a connection that breaks (reset, or a chunked
/// body cut short) ends it with that error, usually ``CourierError/Kind/notConnected``.
public struct EventStream<Payload: Sendable>: AsyncSequence, Sendable {
    /// A typed event.
    public typealias Element = ServerEvent<Payload>

    /// Opens one connection, sending `Last-Event-ID` when there is one.
    let connect: @Sendable (_ lastEventID: String?) async throws(CourierError) -> ResponseStream
    /// Reads one event's data as the payload.
    let decode: @Sendable (_ data: String, _ response: HTTPResponse) throws -> Payload
    let options: EventStreamOptions
    let reconnects: Bool
    let clock: ElapsedClock
    let random: @Sendable () -> Double

    /// Creates an iterator; each iterator opens its own connections.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Reads events, connecting and reconnecting as needed.
    public struct Iterator: AsyncIteratorProtocol {
        let stream: EventStream
        var parser: EventStreamParser
        var connection: Connection?
        var pending: [EventStreamParser.Item] = []
        var pendingIndex = 0
        /// Reconnection attempts in a row without a successful connection.
        var failedAttempts = 0
        var isFinished = false

        init(stream: EventStream) {
            self.stream = stream
            parser = EventStreamParser(maximumEventSize: stream.options.maximumEventSize)
        }

        /// The next event, or `nil` when the stream has ended.
        /// - Throws: ``CourierError``.
        public mutating func next() async throws(CourierError) -> ServerEvent<Payload>? {
            while true {
                if pendingIndex < pending.count {
                    let item = pending[pendingIndex]
                    pendingIndex += 1
                    switch item {
                    case .comment(let text):
                        stream.options.onComment?(text)
                    case .event(let type, let data, let id, let retry):
                        return try event(type: type, data: data, id: id, retry: retry)
                    }
                    continue
                }
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
                guard !isFinished else { return nil }
                do {
                    if connection == nil {
                        try await open()
                        continue
                    }
                    guard let chunk = try await read() else {
                        try await reconnect(after: nil)
                        continue
                    }
                    pending = try parser.feed(chunk)
                } catch {
                    let error = CourierError(error)
                    guard Self.isDroppedConnection(error) else {
                        close(finishing: true)
                        throw error
                    }
                    try await reconnect(after: error)
                }
            }
        }

        private func event(type: String, data: String, id: String?, retry: Duration?) throws(CourierError) -> ServerEvent<Payload> {
            do {
                let payload = try stream.decode(data, connection?.response ?? HTTPResponse(status: .ok))
                return ServerEvent(type: type, data: payload, id: id, retry: retry)
            } catch {
                throw CourierError(
                    .decodingFailed,
                    message: "An event\(id.map { " (id \($0))" } ?? "") could not be read.",
                    underlyingError: error
                )
            }
        }

        /// Opens a connection; a 204 ends the stream, a body that is not an event stream is an error.
        private mutating func open() async throws(CourierError) {
            let body = try await stream.connect(parser.lastEventID)
            if body.response.status.code == 204 {
                isFinished = true
                return
            }
            let mediaType = body.response.headerFields[.contentType]?.split(separator: ";").first?
                .trimmingCharacters(in: .whitespaces).lowercased()
            guard mediaType == "text/event-stream" else {
                var error = CourierError(
                    .invalidResponse,
                    message: "The server answered with \(mediaType ?? "no content type"), not an event stream."
                )
                error.status = body.response.status
                throw error
            }
            connection = Connection(response: body.response, reader: BodyReader(body.makeAsyncIterator()))
            failedAttempts = 0
        }

        /// The next chunk of the open connection, or `nil` at its end or when it stayed silent
        /// past the idle timeout (then closed).
        private func read() async throws -> ArraySlice<UInt8>? {
            guard let reader = connection?.reader else { return nil }
            guard let idle = stream.options.idleTimeout else { return try await reader.next() }
            let clock = stream.clock
            return try await withThrowingTaskGroup(of: ArraySlice<UInt8>??.self) { group in
                group.addTask { .some(try await reader.next()) }
                group.addTask {
                    try await clock.sleep(idle)
                    return .none
                }
                defer { group.cancelAll() }
                // The first to finish decides: a chunk (or the body's end), or the idle timeout,
                // whose `nil` cancels the read and so closes the connection.
                guard let first = try await group.next(), let chunk = first else { return nil }
                return chunk
            }
        }

        /// Closes the connection and, if the stream may reconnect, waits and opens the next one.
        private mutating func reconnect(after error: CourierError?) async throws(CourierError) {
            close(finishing: false)
            guard stream.reconnects else {
                isFinished = true
                if let error { throw error }
                return
            }
            failedAttempts += 1
            guard failedAttempts <= stream.options.maximumReconnectAttempts else {
                isFinished = true
                throw error
                    ?? CourierError(
                        .notConnected,
                        message: "The event stream closed \(failedAttempts) times in a row without a new connection."
                    )
            }
            let delay =
                (parser.retry ?? stream.options.reconnectDelay)
                + stream.options.backoff.delay(forRetry: failedAttempts, random: stream.random())
            do {
                try await stream.clock.sleep(delay)
            } catch {
                isFinished = true
                throw CourierError(.cancelled, underlyingError: error)
            }
        }

        /// Forgets the connection and any event it left half-read; the last event ID and the
        /// server's retry delay stay.
        private mutating func close(finishing: Bool) {
            connection = nil
            parser = parser.startingOver()
            if finishing { isFinished = true }
        }

        /// Whether `error` is the connection going away (to be reconnected) rather than an
        /// answer (a status, a refusal, a cancellation).
        static func isDroppedConnection(_ error: CourierError) -> Bool {
            error.status == nil && [.notConnected, .timedOut, .transportFailed, .invalidResponse].contains(error.kind)
        }
    }

    /// An open connection: the response head and its body's reader.
    struct Connection {
        let response: HTTPResponse
        let reader: BodyReader
    }

    /// The body of one connection, read by one task at a time.
    final class BodyReader: @unchecked Sendable {  // @unchecked: each `next` is awaited before the next one starts.
        private var iterator: ResponseStream.Iterator

        init(_ iterator: ResponseStream.Iterator) { self.iterator = iterator }

        func next() async throws -> ArraySlice<UInt8>? { try await iterator.next() }
    }
}
