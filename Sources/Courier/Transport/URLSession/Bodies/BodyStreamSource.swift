import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request body that URLSession reads as a stream (`httpBodyStream`), and the fresh streams it
/// asks for (`urlSession(_:task:needNewBodyStream:)`) when it must send the request again: after
/// an authentication challenge or a recoverable server error on Apple platforms, and whenever
/// libcurl rewinds the body on Linux.
///
/// A body from disk or memory is read again from its start; a body that can be read only once (an
/// `HTTPBody` that iterates once) cannot, and URLSession is answered `nil`, which fails the task
/// instead of sending part of a body.
final class BodyStreamSource: Sendable {
    /// What the body is read from; `nil` when it can be read only once.
    let segments: [BodySegment]?
    /// The stream URLSession reads now: the one whose failure is the transfer's.
    private let current = LockedState<SegmentInputStream?>(nil)

    /// A body read from `segments`, which can be read again.
    init(segments: [BodySegment]) {
        self.segments = segments
    }

    /// The body of `payload`: bytes, a file and a form can be read again; a stream cannot, since
    /// URLSession asks for it synchronously and an `HTTPBody` is read asynchronously.
    init(_ payload: RequestPayload) {
        switch payload.source {
        case .bytes(let data): self.segments = [.bytes(data)]
        case .file, .multipart: self.segments = payload.segments
        case .stream: self.segments = nil
        }
    }

    /// Whether URLSession can be given the body again.
    var canReopen: Bool { segments != nil }

    /// A new, unopened stream from the body's start, which becomes the current one; `nil` when
    /// the body cannot be read again.
    func makeStream() -> SegmentInputStream? {
        guard let segments else { return nil }
        let stream = SegmentInputStream(segments)
        current.withLock { $0 = stream }
        return stream
    }

    /// Why the current stream ended early, if it did.
    var failure: CourierError? {
        current.withLock { $0?.failure }
    }
}
