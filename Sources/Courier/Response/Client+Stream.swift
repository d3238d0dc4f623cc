import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Client {
    /// Sends the call and returns a successful response's body unread, to process piece by piece.
    ///
    /// ```swift
    /// let stream = try await client.stream(Request<Data>(.get, "exports/today.ndjson"))
    /// for try await chunk in stream { parser.feed(chunk) }
    /// ```
    /// The call returns when the response's head has arrived; the endpoint's timeout covers only
    /// that. A non-2xx response fails as ``send(_:)`` would. The body streams as it arrives on
    /// every transport; nothing limits its size but the reader.
    /// - Parameters:
    ///   - endpoint: The call; its `Response` type is not used.
    ///   - progress: Called with download progress while the stream is read.
    /// - Returns: The response and its body as an `AsyncSequence` of byte chunks.
    /// - Throws: ``CourierError``.
    public func stream<E: Endpoint>(
        _ endpoint: E,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> ResponseStream {
        let snapshot = self.snapshot
        let prepared = try Self.prepareTransfer(endpoint.request, configuration: snapshot.value)
        let errorFormat = snapshot.value.errorFormat
        let bodyLimit = snapshot.value.maximumResponseBodySize
        return try await perform(prepared, configuration: snapshot, delivery: .streamed(collectingFailuresUpTo: bodyLimit), progress: progress) { result in
            let (response, body) = (result.response, result.body)
            guard response.status.kind == .successful else {
                let data = try await ResponseBody.data(of: body, upTo: bodyLimit)
                throw ResponseReader.error(for: response, body: data, errorFormat: errorFormat, url: result.url)
            }
            return ResponseStream(response: response, body: body, httpVersion: result.httpVersion, timings: result.timings)
        }
    }
}
