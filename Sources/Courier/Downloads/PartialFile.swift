import Foundation

/// An open partial file written at explicit offsets (`pwrite`), so that a range that starts earlier
/// than asked overwrites what it repeats instead of being appended.
final class PartialFile {
    let url: URL
    private let descriptor: Int32

    init(url: URL) throws(CourierError) {
        self.url = url
        let descriptor = Foundation.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.failure("opened", url: url) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes `bytes` at `offset`.
    func write(_ bytes: ArraySlice<UInt8>, at offset: Int64) throws(CourierError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written, off_t(offset) + off_t(written))
            }
            if result < 0 {
                guard errno == EINTR else { throw Self.failure("written", url: url) }
                continue
            }
            written += result
        }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int64) throws(CourierError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw Self.failure("truncated", url: url) }
    }

    /// Flushes written bytes to the disk, before a record counts them.
    func flush() throws(CourierError) {
        guard fsync(descriptor) == 0 else { throw Self.failure("flushed", url: url) }
    }

    private static func failure(_ action: String, url: URL) -> CourierError {
        let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        return CourierError(.fileAccessFailed, message: "The partial download at \(url.path) could not be \(action).", underlyingError: error)
    }
}
