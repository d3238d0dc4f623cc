import Courier
import Foundation

/// A response body that arrives in chunks, each after the time the bandwidth allows on a clock,
/// and then ends, or stays open until a gate opens.
struct PacedBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let bytes: Data
    let chunkSize: Int
    /// How long one chunk of `chunkSize` bytes takes; zero for no pacing.
    let perChunk: Duration
    let sleep: @Sendable (Duration) async throws -> Void
    /// What keeps the body open after its last chunk; `nil` to end it there.
    var keptOpenBy: StubGate?

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: PacedBody
        var offset = 0

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard offset < body.bytes.count else {
                try await body.keptOpenBy?.wait()
                return nil
            }
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
