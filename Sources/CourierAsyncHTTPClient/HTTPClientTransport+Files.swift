// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIRuntime

extension HTTPClientTransport: FileTransferTransport {
    /// Streams a file body from disk and a successful download to disk in AsyncHTTPClient's own
    /// buffers, without converting them to `HTTPBody` chunks.
    package func transfer(_ transfer: FileTransfer) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            var clientRequest = try Self.clientRequest(transfer.request, origin: transfer.origin)
            if let file = transfer.bodyFile {
                let reader = try FileReader(url: file)
                clientRequest.body = .stream(
                    FileBuffers(reader: reader, progress: transfer.progress),
                    length: .known(reader.size)
                )
            } else if let body = transfer.body {
                clientRequest.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: Self.length(of: body))
            }
            let response = try await client(for: transfer.origin).execute(clientRequest, timeout: .hours(24))
            let head = Self.head(of: response)
            let total = ContentLength.value(in: head.headerFields)
            if let destination = transfer.destination {
                try await Self.write(response.body, to: destination, total: total, progress: transfer.progress)
                return (head, nil)
            }
            var collected = ByteBuffer()
            for try await buffer in response.body {
                try Task.checkCancellation()
                guard collected.readableBytes + buffer.readableBytes <= transfer.bodyLimit else {
                    throw CourierError(
                        .responseTooLarge,
                        message: "The response body is larger than the limit of \(transfer.bodyLimit) bytes."
                    )
                }
                collected.writeImmutableBuffer(buffer)
            }
            return (head, HTTPBody(collected.readableBytesView))
        } catch {
            throw AsyncHTTPClientErrorClassifier.courierError(for: error)
        }
    }

    /// Writes every buffer of `body` to `file` (created or truncated) as it arrives.
    private static func write(
        _ body: HTTPClientResponse.Body,
        to file: URL,
        total: Int64?,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: file.path)
        else {
            throw CourierError(.fileAccessFailed, message: "Cannot write to \(file.path).")
        }
        defer { try? handle.close() }
        var written: Int64 = 0
        progress?(TransferProgress(direction: .download, completedBytes: 0, totalBytes: total))
        for try await buffer in body {
            // Buffered data is handed over without suspending, so the loop checks for cancellation.
            try Task.checkCancellation()
            do {
                try buffer.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
            } catch {
                throw CourierError(.fileAccessFailed, message: "Writing to \(file.path) failed.", underlyingError: error)
            }
            written += Int64(buffer.readableBytes)
            progress?(TransferProgress(direction: .download, completedBytes: written, totalBytes: total))
        }
    }
}
#endif
