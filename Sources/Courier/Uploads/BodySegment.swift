import Foundation

/// One stretch of a request body that is read from disk or memory as it is sent: bytes held in
/// memory, or a file of a size fixed when the body was built.
package enum BodySegment: Sendable, Hashable {
    case bytes(Data)
    /// A regular file, `size` bytes long when the body was built: a file that is longer or shorter
    /// when it is read fails the upload (``SegmentReader``).
    case file(URL, size: Int64)

    /// The segment's length in bytes.
    package var length: Int64 {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(_, let size): size
        }
    }

    /// A file segment for `url`, its size read now.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when `url` is not a readable regular file.
    static func file(_ url: URL) throws(CourierError) -> BodySegment {
        guard url.isFileURL else {
            // Only the scheme: a signed or credentialed URL must not reach an error's text.
            throw CourierError(.invalidRequest, message: "A file body needs a file: URL, not a \(url.scheme ?? "relative") URL.")
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw CourierError(.fileAccessFailed, message: "Cannot read \(url.path).", underlyingError: error)
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            throw CourierError(.fileAccessFailed, message: "\(url.path) is not a regular file.")
        }
        return .file(url, size: size)
    }
}
