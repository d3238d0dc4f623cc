import Foundation
import OpenAPIRuntime

/// A streamed response body on its way from URLSession, which delivers it as fast as the network
/// does, to one reader, who may be far slower: up to ``Limits/memory`` unread bytes wait in
/// memory, the rest in a ``SpoolFile``, and the reader receives all of them in order.
///
/// The same on every platform, because URLSession on Linux cannot be slowed down. A suspended task is taken off libcurl and never
/// resumes mid-body, and a delegate callback held until the reader catches up holds every URLSession
/// task of the process: the work queues of all sessions target one serial queue, the one
/// `URLSessionTask.cancel()` also waits on. So what the reader has not reached waits on disk.
///
/// The writer calls ``append(_:)`` and ``finish(throwing:)``; the reader calls ``next()`` and, if
/// it stops early, ``terminate()``, which also stops the URLSession task.
final class SpooledBody: Sendable {
    /// How much waits in memory, and how the file is read back.
    struct Limits: Sendable {
        /// The most unread bytes kept in memory; past it pieces go to the file until it is read.
        var memory = 4 << 20
        /// The most unread bytes kept in the file: a reader further behind ends the body with
        /// ``CourierError/Kind/responseTooLarge`` and stops the task, so that a stream nobody reads
        /// cannot fill the disk.
        var disk = 1 << 30
        /// The largest piece read back from the file at a time.
        var readSize = 64 << 10
        /// Records what the bodies held, for tests.
        var gauge: Gauge?
    }

    private let limits: Limits
    private let stopTask: @Sendable () -> Void
    private let state = LockedState(State())

    /// Creates an empty body.
    /// - Parameters:
    ///   - limits: How much waits in memory.
    ///   - stopTask: Stops the URLSession task when the reader stops before the end.
    init(limits: Limits = Limits(), stopTask: @escaping @Sendable () -> Void) {
        self.limits = limits
        self.stopTask = stopTask
    }

    /// The most unread bytes this body has held in memory at once.
    var peakMemoryBytes: Int { state.withLock { $0.peakMemoryBytes } }

    /// Adds a piece that arrived: to memory while there is room and nothing waits in the file,
    /// else to the file. Called on URLSession's thread, one piece at a time.
    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        let step = state.withLock { $0.store(data, memoryLimit: limits.memory, diskLimit: limits.disk) }
        switch step {
        case .dropped:
            return
        case .overflow:
            finish(throwing: Self.overflow(limit: limits.disk))
            stopTask()
        case .kept(let waiter):
            if let gauge = limits.gauge { gauge.held(peakMemoryBytes) }
            waiter?.resume()
        case .spill(let file, let offset, let emptied):
            spill(data, to: file, at: offset, emptied: emptied)
        }
    }

    /// Ends the body after what was appended: with `error`, or normally when it is `nil`.
    func finish(throwing error: (any Error)?) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.end == nil, !state.terminated else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            return state.takeWaiter()
        }
        waiter?.resume()
    }

    /// The next unread piece, waiting for one if needed; `nil` at the end, or once the reader
    /// stopped (cancelling the waiting task stops it, as it stops an `AsyncThrowingStream`).
    /// - Throws: The error the body ended with, after every piece before it.
    func next() async throws -> HTTPBody.ByteChunk? {
        while true {
            switch state.withLock({ $0.take(readSize: limits.readSize) }) {
            case .chunk(let chunk):
                return chunk
            case .read(let file, let offset, let count):
                let bytes: [UInt8]
                do {
                    bytes = try file.read(count, at: offset)
                } catch {
                    terminate()
                    throw error
                }
                state.withLock { $0.consumed(count, at: offset) }
                return bytes[...]
            case .end(let outcome):
                try outcome.get()
                return nil
            case .wait:
                await waitForMore()
            }
        }
    }

    /// The reader stopped before the end: forgets what is unread and, unless the whole body has
    /// arrived, stops the URLSession task.
    func terminate() {
        let (waiter, unfinished) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            guard !state.terminated else { return (nil, false) }
            let unfinished = state.end == nil
            state.terminate()
            return (state.takeWaiter(), unfinished)
        }
        waiter?.resume()
        if unfinished { stopTask() }
    }

    /// The error of a reader that fell `limit` bytes behind.
    static func overflow(limit: Int) -> CourierError {
        CourierError(
            .responseTooLarge,
            message: "The reader fell more than \(limit) bytes behind the streamed body. URLSession on Linux cannot slow "
                + "the server down; read the stream faster, or send it through the AsyncHTTPClient transport, which can."
        )
    }

    private func spill(_ data: Data, to existing: SpoolFile?, at offset: Int, emptied: Bool) {
        guard let file = existing ?? (try? SpoolFile()) else {
            // No temporary file to be had (a read-only or full disk): memory it is, as before.
            let waiter = state.withLock { $0.keepInMemory(data) }
            if let gauge = limits.gauge { gauge.held(peakMemoryBytes) }
            waiter?.resume()
            return
        }
        do {
            if emptied { file.empty() }
            try file.write(data, at: offset)
        } catch {
            // What came before still reaches the reader; then the error ends the body.
            finish(throwing: error)
            stopTask()
            return
        }
        let waiter = state.withLock { $0.spilled(data.count, to: file, at: offset) }
        limits.gauge?.spilled(data.count)
        waiter?.resume()
    }

    private func waitForMore() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if !state.withLock({ $0.wait(continuation) }) { continuation.resume() }
            }
        } onCancel: {
            terminate()
        }
    }
}
