import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The body of a successful response as it arrives, for ``Client/stream(_:progress:)``: large
/// bodies, server-sent lines, anything to process piece by piece instead of holding whole.
///
/// ```swift
/// let stream = try await client.stream(Request<Data>(.get, "exports/today.ndjson"))
/// for try await chunk in stream {
///     parser.feed(chunk)
/// }
/// ```
/// A stream can be read once. Errors while reading are ``CourierError``s (a connection reset is
/// `notConnected`, a body cut short is `invalidResponse`); cancelling the reading task ends the
/// stream and closes the connection.
public struct ResponseStream: AsyncSequence, Sendable {
    /// A piece of the body, in the size the transport received it.
    public typealias Element = ArraySlice<UInt8>

    /// The response's status and header fields.
    public let response: HTTPResponse
    let body: HTTPBody?
    /// The version of HTTP that carries the body; ``HTTPProtocolVersion/unknown`` when the transport does
    /// not say by the time the head arrives (URLSession).
    public var httpVersion: HTTPProtocolVersion = .unknown
    /// When the request was sent and the head arrived; ``ExchangeTimings/responseEnded`` is `nil`,
    /// the body still being on its way.
    public var timings: ExchangeTimings?

    /// The body's length from `Content-Length`, when the server sent one.
    public var expectedLength: Int64? {
        if case .known(let length) = body?.length { return length }
        return ContentLength.value(in: response.headerFields)
    }

    /// Creates an iterator; iterate a stream only once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: body?.makeAsyncIterator())
    }

    /// Reads the body's pieces in order.
    public struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator?

        /// The next piece, or `nil` at the end of the body.
        /// - Throws: ``CourierError``.
        public mutating func next() async throws -> ArraySlice<UInt8>? {
            guard base != nil else { return nil }
            do {
                return try await base?.next()
            } catch {
                base = nil
                throw CourierError(error)
            }
        }
    }
}
