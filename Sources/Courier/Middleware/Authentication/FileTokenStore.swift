import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps tokens in a JSON file that only its owner can read (permissions 0600), replaced
/// atomically on every save so a crash never leaves half a file.
///
/// ```swift
/// let store = FileTokenStore(url: supportDirectory.appending(path: "tokens.json"))
/// ```
/// For servers and command-line tools; on Apple platforms prefer `KeychainTokenStore`.
public struct FileTokenStore: TokenStore {
    /// The file.
    public let url: URL

    /// Creates a store for a file; the file is created on the first save.
    /// - Parameter url: A file URL in a directory that exists.
    public init(url: URL) {
        self.url = url
    }

    /// The stored tokens.
    /// - Returns: The tokens, or `nil` when the file does not exist.
    /// - Throws: When the file cannot be read or decoded.
    public func load() throws -> AuthTokens? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(AuthTokens.self, from: Data(contentsOf: url))
    }

    /// Replaces the file with `tokens`, or deletes it for `nil`.
    ///
    /// The bytes go to a new temporary file beside the destination, created by open(2) with mode
    /// 0600 (so they are never readable by others, not even for an instant), flushed to disk, then
    /// renamed over the destination: readers see the old file or the new one, never a mix.
    /// - Parameter tokens: The tokens to keep.
    /// - Throws: A `POSIXError` when the file cannot be written, renamed or deleted.
    public func save(_ tokens: AuthTokens?) throws {
        guard let tokens else {
            guard unlink(url.path) == 0 || errno == ENOENT else { throw Self.lastError() }
            return
        }
        let data = try JSONEncoder().encode(tokens)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
        do {
            try Self.writeNewFile(data, at: temporary)
            guard rename(temporary, url.path) == 0 else { throw Self.lastError() }
        } catch {
            unlink(temporary)
            throw error
        }
        Self.synchronizeDirectory(directory)
    }

    /// Creates `path` (which must not exist) with mode 0600 and writes `data` to disk.
    private static func writeNewFile(_ data: Data, at path: String) throws {
        // O_EXCL: never follow a planted symlink or reuse a file someone else created.
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw lastError() }
        var closed = false
        defer { if !closed { close(descriptor) } }
        // The umask can only remove bits from 0600; this makes the mode exactly 0600 regardless.
        guard fchmod(descriptor, 0o600) == 0 else { throw lastError() }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw lastError()
                }
                offset += written
            }
        }
        guard flush(descriptor) else { throw lastError() }
        closed = true
        guard close(descriptor) == 0 else { throw lastError() }
    }

    /// Flushes the directory entry of the rename, so a crash right after a save keeps it. Best
    /// effort: the file is already complete and in place.
    private static func synchronizeDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = flush(descriptor)
        close(descriptor)
    }

    /// Writes what `descriptor` holds to the disk itself. Darwin's `fsync` stops at the drive's
    /// cache, and `F_FULLFSYNC` asks the drive to write it out; a file system without it gets `fsync`.
    private static func flush(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) != -1 { return true }
        #endif
        return fsync(descriptor) == 0
    }

    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
