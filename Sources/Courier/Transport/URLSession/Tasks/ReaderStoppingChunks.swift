import OpenAPIRuntime

/// A response body's chunks that stop the URLSession task when their reader stops before the end
/// (a size limit reached, the reader cancelled, the body dropped unread): the body itself cannot
/// tell, as the handler still holds it to write into.
struct ReaderStoppingChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    private let body: SpooledBody
    /// Stops the task when the sequence goes away without an iterator.
    private let sequence: Reader

    init(body: SpooledBody) {
        self.body = body
        self.sequence = Reader(body: body)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(body: body, reader: Reader(body: body), sequence: sequence)
    }

    struct Iterator: AsyncIteratorProtocol {
        let body: SpooledBody
        let reader: Reader
        let sequence: Reader

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            try await body.next()
        }
    }

    /// Stops the body when it goes away: once the body has ended, that only lets go of what is
    /// unread; before, it also stops the task.
    final class Reader: Sendable {
        private let body: SpooledBody

        init(body: SpooledBody) {
            self.body = body
        }

        deinit {
            body.terminate()
        }
    }
}
