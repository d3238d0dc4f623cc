import Foundation
import HTTPTypes

extension Client {
    /// Downloads to `destination` so that a cut, a cancellation or a killed app loses nothing: the
    /// next call with the same destination resumes where the saved bytes end.
    ///
    /// ```swift
    /// let file = try await client.resumableDownload(Request<Data>(.get, "files/trailer.mp4"), to: destination)
    /// ```
    /// The bytes go to `.NAME.part` beside `destination` as they arrive, with a ``DownloadRecord``
    /// in `.NAME.part.record`. A later call asks for the rest with `Range` and `If-Range`, naming
    /// the saved version by its strong `ETag` (or `Last-Modified`), on every transport. The answer
    /// decides: a matching 206 is written at the offset its `Content-Range` gives; a 200 (a new
    /// version, or a server that ignores ranges) starts the file again from the first byte; a 416
    /// finishes a file already whole. A server that offers neither a strong `ETag` nor
    /// `Last-Modified` cannot promise that two responses hold the same file, so every call starts
    /// again. The finished file replaces `destination` in one step and the record is deleted.
    ///
    /// Only the response's head is bound by the endpoint's timeout: the body takes as long as it
    /// takes. A failure or a cancellation leaves the partial file and its record, and throws.
    /// - Parameters:
    ///   - endpoint: The call (a `GET`); its `Response` type is not used.
    ///   - destination: A `file:` URL; its directory must exist.
    ///   - progress: Called as bytes are saved; a resumed download starts at the saved offset.
    ///   - renewingRequest: Called when the server refuses the call with 401, 403, 404 or 410 (a
    ///     signed link that expired): return a new endpoint for the same file, or `nil` to fail.
    ///     The download resumes from the new one while its version matches the saved bytes.
    /// - Returns: Where the file is, its size and the last response.
    /// - Throws: ``CourierError``; the partial file and its record stay for the next call.
    public func resumableDownload<E: Endpoint>(
        _ endpoint: E,
        to destination: URL,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        renewingRequest: (@Sendable (CourierError) async -> E?)? = nil
    ) async throws(CourierError) -> DownloadedFile {
        guard destination.isFileURL else {
            throw CourierError(.invalidRequest, message: "A download needs a file: URL, not \(destination.absoluteString).")
        }
        var download = try ResumableDownload(
            partial: PartialDownload(destination: destination),
            url: Self.recordedURL(of: try prepare(endpoint)),
            progress: progress
        )
        var endpoint = endpoint
        var (restarts, renewals) = (0, 0)
        while true {
            guard !Task.isCancelled else {
                try download.save()
                throw CourierError(.cancelled)
            }
            let (request, offset) = download.request(for: endpoint.request)
            let stream: ResponseStream
            do {
                stream = try await self.stream(request)
            } catch {
                if error.status == .rangeNotSatisfiable, offset != nil {
                    if try download.finishIfWhole() {
                        return try download.finish(response: HTTPResponse(status: .rangeNotSatisfiable, headerFields: error.responseHeaderFields ?? [:]))
                    }
                    restarts += 1
                    try download.startAgain(after: restarts, reason: "a 416 to a file that is not whole")
                    continue
                }
                if let renew = renewingRequest, let status = error.status?.code, [401, 403, 404, 410].contains(status), renewals < 3,
                    let renewed = await renew(error)
                {
                    renewals += 1
                    endpoint = renewed
                    download.url = Self.recordedURL(of: try prepare(renewed))
                    continue
                }
                try download.save()
                throw error
            }
            switch ResumeDecision.decide(stream.response, askedFrom: offset, record: download.record) {
            case .startAgain(let reason):
                restarts += 1
                try download.startAgain(after: restarts, reason: reason)
            case .whole(let length):
                try download.beginWhole(response: stream.response, length: length)
                if try await download.write(stream, from: 0, end: length, total: length) {
                    return try download.finish(stream)
                }
            case .range(let first, let end, let total):
                if try await download.write(stream, from: first, end: end, total: total) {
                    return try download.finish(stream)
                }
            }
        }
    }

    /// The URL a record keeps: with every query value and any user info redacted.
    private static func recordedURL(of prepared: PreparedRequest) -> String {
        ErrorText.redactingURLs(in: prepared.url?.absoluteString ?? "")
    }
}
