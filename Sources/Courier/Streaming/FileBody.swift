import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A file's contents as a request body, read from disk in pieces while the transport sends them.
///
/// Each iteration opens the file again, so a retried attempt sends it from the start.
struct FileBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    static let pieceSize = 256 * 1024

    let url: URL

    /// The body for `url`, with the file's size as its length.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the file does not exist or is not a
    ///   regular file.
    static func body(for url: URL) throws(CourierError) -> HTTPBody {
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
        return HTTPBody(FileBody(url: url), length: .known(size), iterationBehavior: .multiple)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(url: url)
    }

    struct Iterator: AsyncIteratorProtocol {
        let url: URL
        var handle: FileHandle?
        var finished = false

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard !finished else { return nil }
            try Task.checkCancellation()
            do {
                if handle == nil { handle = try FileHandle(forReadingFrom: url) }
                guard let data = try handle?.read(upToCount: FileBody.pieceSize), !data.isEmpty else {
                    finished = true
                    try handle?.close()
                    return nil
                }
                return ArraySlice(data)
            } catch {
                finished = true
                throw CourierError(.fileAccessFailed, message: "Reading \(url.path) failed.", underlyingError: error)
            }
        }
    }
}
