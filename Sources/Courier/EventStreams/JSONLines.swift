import Foundation
import HTTPTypes

/// A JSON Lines (or RFC 7464 JSON text sequence) body as an `AsyncSequence` of decoded values,
/// read element by element in memory bounded by the longest line: from ``Client/lines(_:maximumLineSize:)``.
///
/// ```swift
/// for try await movie in client.lines(ExportAPI.allMovies) {
///     index(movie)
/// }
/// ```
/// Blank lines are skipped and a last line without a line end is read. A line that is not valid
/// JSON for the element type ends the sequence with ``CourierError/Kind/decodingFailed``, naming
/// its line number; a line over the limit with ``CourierError/Kind/streamElementTooLarge``.
public struct JSONLines<Element: Sendable>: AsyncSequence, Sendable {
    let open: @Sendable () async throws(CourierError) -> ResponseStream
    let decode: @Sendable (_ line: Data, _ response: HTTPResponse) throws -> Element
    let maximumLineSize: Int

    /// Creates an iterator; each iterator sends the request again.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lines: self, splitter: JSONLinesSplitter(maximumLineSize: maximumLineSize))
    }

    /// Reads the body line by line.
    public struct Iterator: AsyncIteratorProtocol {
        let lines: JSONLines
        var splitter: JSONLinesSplitter
        var response: HTTPResponse?
        var body: ResponseStream.Iterator?
        var pending: [JSONLinesSplitter.Line] = []
        var pendingIndex = 0
        var isFinished = false

        /// The next value, or `nil` after the last line.
        /// - Throws: ``CourierError``.
        public mutating func next() async throws(CourierError) -> Element? {
            while true {
                if pendingIndex < pending.count {
                    let line = pending[pendingIndex]
                    pendingIndex += 1
                    return try decode(line)
                }
                pending.removeAll(keepingCapacity: true)
                pendingIndex = 0
                guard !isFinished else { return nil }
                if body == nil {
                    let stream = try await lines.open()
                    response = stream.response
                    body = stream.makeAsyncIterator()
                }
                do {
                    if let chunk = try await body?.next() {
                        pending = try splitter.feed(chunk)
                    } else {
                        isFinished = true
                        if let last = splitter.finish() { pending = [last] }
                    }
                } catch {
                    isFinished = true
                    throw CourierError(error)
                }
            }
        }

        private func decode(_ line: JSONLinesSplitter.Line) throws(CourierError) -> Element {
            do {
                return try lines.decode(Data(line.bytes), response ?? HTTPResponse(status: .ok))
            } catch {
                throw CourierError(.decodingFailed, message: "Line \(line.number) could not be read.", underlyingError: error)
            }
        }
    }
}

extension Client {
    /// Sends the call and reads its JSON Lines (or JSON text sequence) body as a sequence of
    /// values, each line decoded as the endpoint's `Response`; the request is sent when iteration
    /// starts.
    ///
    /// ```swift
    /// for try await movie in client.lines(Request<Movie>(.get, "exports/movies.jsonl")) {
    ///     index(movie)
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: The call; its `Response` is the type of one line.
    ///   - maximumLineSize: The longest line accepted, 1 MiB by default.
    /// - Returns: The values, as an `AsyncSequence` whose errors are ``CourierError``s.
    public func lines<E: Endpoint>(_ endpoint: E, maximumLineSize: Int = 1 << 20) -> JSONLines<E.Response> {
        let request = endpoint.request
        let decoding = request.decoding
        let decoder = ResponseJSONDecoder(for: request, configuration: configuration)
        return JSONLines(
            open: { () async throws(CourierError) in try await self.stream(request) },
            decode: { line, response in try decoding.decode(line, response, decoder) },
            maximumLineSize: maximumLineSize
        )
    }
}
