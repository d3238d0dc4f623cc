import Foundation
import ReferenceServer

/// Files of ``FilePattern`` bytes, written a mebibyte at a time whatever their size.
public enum PatternFile {
    /// Writes the first `size` bytes of the pattern to `url`, replacing any file there.
    /// - Parameters:
    ///   - size: The file's size in bytes.
    ///   - url: A `file:` URL.
    /// - Throws: When the file cannot be written.
    public static func write(_ size: Int, to url: URL) throws {
        // A whole number of 251-byte periods, so that pieces follow on seamlessly.
        let piece = FilePattern.data(count: 251 * 4096)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var written = 0
        while written < size {
            let count = min(piece.count, size - written)
            try handle.write(contentsOf: piece.prefix(count))
            written += count
        }
    }
}
