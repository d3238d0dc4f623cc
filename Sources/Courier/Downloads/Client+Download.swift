import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Client {
    /// Sends the call and writes a successful response's body to `destination` as it arrives:
    /// memory stays constant whatever the size.
    ///
    /// ```swift
    /// let file = try await client.download(Request<Data>(.get, "files/trailer.mp4"), to: destination) { progress in
    ///     bar.value = progress.fractionCompleted ?? 0
    /// }
    /// print("\(file.byteCount) bytes at \(file.url.path)")
    /// ```
    /// The body goes to a partial file beside `destination` first and replaces `destination` only
    /// when it is complete, so a failed or cancelled download leaves no half-written file. A
    /// non-2xx response fails as ``send(_:)`` would, with the server's message. The endpoint's
    /// timeout covers the whole transfer: give large downloads a long one (``Request/timeout(_:)``).
    /// - Parameters:
    ///   - endpoint: The call; its `Response` type is not used.
    ///   - destination: A `file:` URL; its directory must exist.
    ///   - progress: Called with download (and upload) progress; keep it quick.
    /// - Returns: Where the body is, its size and the response.
    /// - Throws: ``CourierError``; ``CourierError/Kind/fileAccessFailed`` when the file cannot be
    ///   written.
    public func download<E: Endpoint>(
        _ endpoint: E,
        to destination: URL,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> DownloadedFile {
        let snapshot = self.snapshot
        let prepared = try Self.prepareTransfer(endpoint.request, configuration: snapshot.value)
        guard destination.isFileURL else {
            throw CourierError(.invalidRequest, message: "A download needs a file: URL, not \(destination.absoluteString).")
        }
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        let errorFormat = snapshot.value.errorFormat
        let bodyLimit = snapshot.value.maximumResponseBodySize
        do {
            return try await perform(prepared, configuration: snapshot, delivery: .file(partial, collectingFailuresUpTo: bodyLimit), progress: progress) {
                result in
                let (response, body) = (result.response, result.body)
                guard response.status.kind == .successful else {
                    let data = try await ResponseBody.data(of: body, upTo: bodyLimit)
                    throw ResponseReader.error(for: response, body: data, errorFormat: errorFormat, url: result.url)
                }
                var file = try Self.finishDownload(from: partial, to: destination, response: response)
                (file.httpVersion, file.timings) = (result.httpVersion, result.timings)
                return file
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// The request as ``send(_:)`` would build it, without the `Accept: application/json` a
    /// decoded endpoint adds: the body is not decoded. Downloads and streams share it.
    static func prepareTransfer<Response>(
        _ request: Request<Response>,
        configuration: Configuration
    ) throws(CourierError) -> PreparedRequest {
        var prepared = try RequestBuilder.prepare(request, configuration: configuration)
        if !request.headerFields.contains(.accept), !configuration.commonParameters.headerFields.contains(.accept) {
            prepared.request.headerFields[.accept] = nil
        }
        return prepared
    }

    /// Moves a complete partial file into place.
    private static func finishDownload(from partial: URL, to destination: URL, response: HTTPResponse) throws -> DownloadedFile {
        do {
            if !FileManager.default.fileExists(atPath: partial.path) {
                // A success with no body at all (a transport that never opened the file).
                guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown)
                }
            }
            // rename(2) replaces an existing destination in one step.
            guard rename(partial.path, destination.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber
            return DownloadedFile(url: destination, byteCount: size?.int64Value ?? 0, response: response)
        } catch {
            throw CourierError(.fileAccessFailed, message: "The download could not be saved to \(destination.path).", underlyingError: error)
        }
    }
}
