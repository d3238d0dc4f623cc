// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import Foundation
import NIOCore

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
