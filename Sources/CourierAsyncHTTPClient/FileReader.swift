// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import Foundation
import NIOCore

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
#endif
