import OpenAPIRuntime

/// A response body's chunks that stop the URLSession task when their reader stops before the end
/// (a size limit reached, the reader cancelled): the stream itself cannot tell, as the handler
/// still holds its continuation.
struct ReaderStoppingChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let chunks: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>
    let stopTask: @Sendable () -> Void

    func makeAsyncIterator() -> Iterator {
        Iterator(base: chunks.makeAsyncIterator(), reader: Reader(stopTask: stopTask))
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.AsyncIterator
        let reader: Reader

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            do {
                let chunk = try await base.next()
                if chunk == nil { reader.reachedEnd() }
                return chunk
            } catch {
                reader.reachedEnd()
                throw error
            }
        }
    }

    /// Stops the task when the iterator goes away before the body ended.
    final class Reader: Sendable {
        private let ended = LockedState(false)
        private let stopTask: @Sendable () -> Void

        init(stopTask: @escaping @Sendable () -> Void) {
            self.stopTask = stopTask
        }

        func reachedEnd() {
            ended.withLock { $0 = true }
        }

        deinit {
            if !ended.withLock({ $0 }) { stopTask() }
        }
    }
}
