import OpenAPIRuntime

/// A body's segments as an async sequence of pieces: what ``RequestPayload/body`` streams for a
/// file or a multipart form. Each iteration reads the segments again from the start.
struct SegmentBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let segments: [BodySegment]

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: SegmentReader(segments))
    }

    struct Iterator: AsyncIteratorProtocol {
        let reader: SegmentReader

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            try Task.checkCancellation()
            return try reader.next().map { ArraySlice($0) }
        }
    }
}
