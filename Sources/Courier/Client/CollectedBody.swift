import OpenAPIRuntime

/// The bytes of the last response body an attempt read into memory, kept beside the body made
/// of them: when that same body comes back out of the middleware chain, the call takes the bytes
/// instead of iterating the body a second time (an asynchronous sequence costs a few suspension
/// points per chunk, even for an empty body).
///
/// A middleware that returns another body (one it decoded, replaced or re-wrapped) is read as
/// before: the bytes are only used for the very object they were made into.
final class CollectedBody: Sendable {
    private let last = LockedState<(body: HTTPBody, bytes: HTTPBody.ByteChunk)?>(nil)

    /// A body of `bytes`, remembered with them.
    func body(of bytes: HTTPBody.ByteChunk) -> HTTPBody {
        let body = HTTPBody(bytes)
        last.withLock { $0 = (body, bytes) }
        return body
    }

    /// The bytes `body` was made of here, or `nil` for any other body.
    func bytes(of body: HTTPBody?) -> HTTPBody.ByteChunk? {
        guard let body else { return nil }
        return last.withLock { last in
            guard let last, last.body === body else { return nil }
            return last.bytes
        }
    }
}
