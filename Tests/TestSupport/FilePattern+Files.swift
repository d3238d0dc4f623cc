import Foundation
import ReferenceServer

extension FilePattern {
    /// The checksum of the first `count` bytes of the pattern: what a whole download of
    /// `/files/{count}` or `/ranged/{count}` holds.
    /// - Parameter count: The file's size.
    /// - Returns: The checksum.
    public static func checksum(ofFirst count: Int) -> Checksum {
        var checksum = Checksum()
        bytes(0..<count).withUnsafeBytes { checksum.add($0) }
        return checksum
    }

    /// The checksum of a file's bytes.
    /// - Parameter file: A `file:` URL.
    /// - Returns: The checksum.
    /// - Throws: When the file cannot be read.
    public static func checksum(of file: URL) throws -> Checksum {
        var checksum = Checksum()
        let data = try Data(contentsOf: file)
        data.withUnsafeBytes { checksum.add($0) }
        return checksum
    }
}
