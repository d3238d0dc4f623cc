import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An unlinked temporary file for the part of a streamed body its reader has not reached yet.
///
/// The file is removed from its directory as soon as it is created: nobody else can open it, and
/// the system frees its space when it is closed, even if the process dies first. One thread writes
/// and another reads, at offsets that never overlap (``SpooledBody`` sees to that).
final class SpoolFile: Sendable {
    private let descriptor: Int32

    /// Creates the file in the temporary directory (`TMPDIR`, else `/tmp`).
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when it cannot be created.
    init() throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("courier-body-XXXXXX").path
        var path = Array(template.utf8CString)
        let descriptor = path.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw Self.failure("create", code: errno) }
        unlink(path)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `data` at `offset`.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the disk refuses it (full, say).
    func write(_ data: Data, at offset: Int) throws {
        try data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let count = pwrite(descriptor, base + written, buffer.count - written, off_t(offset + written))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure("write to", code: errno)
                }
                written += count
            }
        }
    }

    /// Reads `count` bytes written earlier at `offset`.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when they cannot be read back.
    func read(_ count: Int, at offset: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            while initialized < count {
                let read = pread(descriptor, base + initialized, count - initialized, off_t(offset + initialized))
                if read < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure("read from", code: errno)
                }
                if read == 0 { throw Self.failure("read from", code: EIO) }
                initialized += read
            }
        }
    }

    /// Gives the space back: called when everything written has been read.
    func empty() {
        _ = ftruncate(descriptor, 0)
    }

    private static func failure(_ action: String, code: Int32) -> CourierError {
        CourierError(
            .fileAccessFailed,
            message: "Could not \(action) the temporary file that holds a streamed body: \(String(cString: strerror(code))).")
    }
}
