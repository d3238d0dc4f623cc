#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import NIOCore
import OpenAPIRuntime

/// A response body as `HTTPBody` chunks, with errors raised while it streams turned into
/// ``CourierError``s.
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let body: HTTPClientResponse.Body

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            do {
                guard let buffer = try await base.next() else { return nil }
                return buffer.withUnsafeReadableBytes { ArraySlice($0) }
            } catch {
                throw CourierError.incompleteBody(after: AsyncHTTPClientErrorClassifier.courierError(for: error))
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator())
    }
}
#endif
