import Foundation

/// Reads a body's segments in order, a piece at a time, so that memory stays constant whatever the
/// files' sizes: the one reader behind both transports (``SegmentBody`` for AsyncHTTPClient and
/// other streaming transports, ``SegmentInputStream`` for URLSession).
///
/// A file is opened when its segment is reached and closed when it ends. It must have exactly the
/// size it had when the body was built: a file that has grown or shrunk since fails the read with
/// ``CourierError/Kind/fileAccessFailed``, before the piece that would end the body is handed out,
/// so that the server never receives a complete request whose bytes do not match its length.
final class SegmentReader {
    /// The largest piece one read returns.
    static let pieceSize = 256 * 1024

    private let segments: [BodySegment]
    private var index = 0
    /// Bytes of the current segment already handed out.
    private var offset: Int64 = 0
    private var handle: FileHandle?

    init(_ segments: [BodySegment]) {
        self.segments = segments
    }

    deinit {
        try? handle?.close()
    }

    /// The next piece of the body, at most `limit` bytes; `nil` at its end.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when a file cannot be read or its size has
    ///   changed since the body was built.
    func next(upTo limit: Int = SegmentReader.pieceSize) throws(CourierError) -> Data? {
        while index < segments.count {
            let segment = segments[index]
            let remaining = segment.length - offset
            guard remaining > 0 else {
                // An empty file must still be there, and still be empty.
                if case .file(let url, let size) = segment, size == 0 { _ = try read(0, of: url, size: 0, last: true) }
                try finishSegment()
                continue
            }
            let count = Int(min(Int64(max(limit, 1)), remaining))
            let piece: Data
            switch segment {
            case .bytes(let data):
                let start = data.startIndex + Int(offset)
                piece = data[start..<start + count]
            case .file(let url, let size):
                piece = try read(count, of: url, size: size, last: Int64(count) == remaining)
            }
            offset += Int64(piece.count)
            return piece
        }
        return nil
    }

    /// Reads `count` bytes of a file segment; for its last piece, checks that nothing follows.
    private func read(_ count: Int, of url: URL, size: Int64, last: Bool) throws(CourierError) -> Data {
        do {
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            guard let handle else { return Data() }
            // One byte more than the segment holds, at its end: a file that grew is caught here,
            // before its last piece goes out.
            let data = try handle.read(upToCount: last ? count + 1 : count) ?? Data()
            guard data.count == count else { throw Self.changedSize(url, size: size) }
            return data
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(.fileAccessFailed, message: "Reading \(url.path) failed.", underlyingError: error)
        }
    }

    private func finishSegment() throws(CourierError) {
        try? handle?.close()
        handle = nil
        index += 1
        offset = 0
    }

    /// The error for a file that no longer has the size it had when the body was built, found
    /// before the body's end went out.
    static func changedSize(_ url: URL, size: Int64) -> CourierError {
        CourierError(
            .fileAccessFailed,
            message: "\(url.lastPathComponent) changed size while it was sent (it had \(size) bytes): the upload stopped before its end."
        )
    }
}
