// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIRuntime

extension HTTPClientTransport {
    /// Writes every buffer of `body` to `file` (created or truncated) as it arrives.
    static func write(
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
