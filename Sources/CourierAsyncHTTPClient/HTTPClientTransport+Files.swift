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
            let total = head.headerFields[.contentLength].flatMap(Int64.init)
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

/// An open file, its size, and reads straight into `ByteBuffer`s.
final class FileReader: Sendable {
    let handle: FileHandle
    let size: Int64
    let url: URL

    init(url: URL) throws(CourierError) {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw CourierError(.fileAccessFailed, message: "Cannot read \(url.path).")
        }
        var info = stat()
        guard fstat(handle.fileDescriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw CourierError(.fileAccessFailed, message: "\(url.path) is not a regular file.")
        }
        self.handle = handle
        self.size = Int64(info.st_size)
        self.url = url
    }

    deinit {
        try? handle.close()
    }

    /// Reads up to `count` bytes from the file's current offset.
    func read(upTo count: Int) throws(CourierError) -> ByteBuffer? {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        let descriptor = handle.fileDescriptor
        var failure: Int32 = 0
        let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
            let result = Foundation.read(descriptor, pointer.baseAddress, count)
            if result < 0 { failure = errno }
            return max(0, result)
        }
        guard failure == 0 else {
            throw CourierError(
                .fileAccessFailed,
                message: "Reading \(url.path) failed.",
                underlyingError: POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
            )
        }
        return read > 0 ? buffer : nil
    }
}

/// A file's contents as AsyncHTTPClient request-body buffers, reporting upload progress.
struct FileBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    static let pieceSize = 256 * 1024

    let reader: FileReader
    let progress: (@Sendable (TransferProgress) -> Void)?

    struct AsyncIterator: AsyncIteratorProtocol {
        let owner: FileBuffers
        var sent: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            try Task.checkCancellation()
            if sent == 0 {
                owner.progress?(TransferProgress(direction: .upload, completedBytes: 0, totalBytes: owner.reader.size))
            }
            guard let buffer = try owner.reader.read(upTo: FileBuffers.pieceSize) else { return nil }
            sent += Int64(buffer.readableBytes)
            owner.progress?(TransferProgress(direction: .upload, completedBytes: sent, totalBytes: owner.reader.size))
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(owner: self)
    }
}
#endif
