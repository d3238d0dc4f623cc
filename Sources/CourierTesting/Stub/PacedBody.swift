import Courier
import Foundation

/// A response body that arrives in chunks, each after the time the bandwidth allows on a clock.
struct PacedBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let bytes: Data
    let chunkSize: Int
    /// How long one chunk of `chunkSize` bytes takes; zero for no pacing.
    let perChunk: Duration
    let sleep: @Sendable (Duration) async throws -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: PacedBody
        var offset = 0

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard offset < body.bytes.count else { return nil }
            let end = Swift.min(offset + body.chunkSize, body.bytes.count)
            if body.perChunk > .zero {
                try await body.sleep(body.perChunk * (Double(end - offset) / Double(body.chunkSize)))
            }
            defer { offset = end }
            let start = body.bytes.startIndex
            return ArraySlice(body.bytes[(start + offset)..<(start + end)])
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(body: self)
    }
}
