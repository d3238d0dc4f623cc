import Foundation

/// A file or multipart body as the `httpBodyStream` URLSession reads: each `read` takes the next
/// piece from a ``SegmentReader``, from memory or straight from disk, so memory stays constant
/// whatever the files' sizes. The same stream serves every platform.
///
/// The stream is read by polling: `hasBytesAvailable` is true until the end, and each `read`
/// blocks only for the disk read of its piece. It sends no run-loop events.
///
/// A read that fails (a file that changed size, one that cannot be read) ends the stream with an
/// error; URLSession then fails the task, and the transport reports ``failure``, the clear reason,
/// instead of URLSession's own.
///
/// URLSession reads on its own thread while the transport asks for `failure` on another: all
/// mutable state is under `state`'s lock.
final class SegmentInputStream: InputStream {
    private struct State {
        var reader: SegmentReader?
        var status: Stream.Status = .notOpen
        var failure: CourierError?
        /// The rest of a piece longer than the last `read` could take.
        var pending = Data()
    }

    private let segments: [BodySegment]
    private let state = LockedState(State())

    /// Creates a stream over `segments`.
    init(_ segments: [BodySegment]) {
        self.segments = segments
        super.init(data: Data())
    }

    /// Why the stream ended early, if it did.
    var failure: CourierError? {
        state.withLock { $0.failure }
    }

    override func open() {
        state.withLock { state in
            guard state.status == .notOpen else { return }
            state.reader = SegmentReader(segments)
            state.status = .open
        }
    }

    override func close() {
        state.withLock { state in
            state.reader = nil
            state.pending = Data()
            state.status = .closed
        }
    }

    override var streamStatus: Stream.Status {
        state.withLock { $0.status }
    }

    override var streamError: (any Error)? {
        state.withLock { $0.failure }
    }

    override var hasBytesAvailable: Bool {
        state.withLock { $0.status == .open }
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        state.withLock { state in
            guard state.status == .open, length > 0 else { return state.status == .error ? -1 : 0 }
            if state.pending.isEmpty {
                do throws(CourierError) {
                    guard let piece = try state.reader?.next(upTo: length), !piece.isEmpty else {
                        state.status = .atEnd
                        return 0
                    }
                    state.pending = piece
                } catch {
                    state.failure = error
                    state.status = .error
                    return -1
                }
            }
            let count = min(length, state.pending.count)
            state.pending.copyBytes(to: buffer, count: count)
            state.pending = state.pending.count == count ? Data() : Data(state.pending.dropFirst(count))
            return count
        }
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        length: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    override func property(forKey key: Stream.PropertyKey) -> StreamPropertyValue? {
        nil
    }

    override func setProperty(_ property: StreamPropertyValue?, forKey key: Stream.PropertyKey) -> Bool {
        false
    }

    override func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    override func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {}
}
