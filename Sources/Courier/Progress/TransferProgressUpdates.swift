import Foundation

/// A transfer's progress as an `AsyncSequence`, each value with a throughput estimate: for a
/// progress bar and a speed label driven by one loop.
///
/// ```swift
/// let updates = TransferProgressUpdates()
/// let bar = Task {
///     for await update in updates {
///         print("\(update.completedBytes) bytes, \(Int(update.bytesPerSecond ?? 0)) bytes/s")
///     }
/// }
/// let file = try await updates.reporting { progress in
///     try await client.resumableDownload(Request<Data>(.get, "files/trailer.mp4"), to: destination, progress: progress)
/// }
/// await bar.value
/// ```
/// Give ``reporting(_:)``'s handler to any call that takes a progress handler; the sequence ends
/// when that call returns or throws. A reader slower than the transfer skips older values and
/// keeps the newest 16, so the last value it sees is the last one reported. Bytes only grow in one direction; a value
/// behind the last one seen is dropped.
public struct TransferProgressUpdates: AsyncSequence, Sendable {
    /// One progress value.
    public typealias Element = TransferProgress

    /// How many values wait for a slow reader; older ones are skipped.
    static let buffered = 16

    private let stream: AsyncStream<TransferProgress>
    private let continuation: AsyncStream<TransferProgress>.Continuation
    private let state = LockedState(ThroughputWindow())

    /// Creates a sequence that ends when ``reporting(_:)`` returns, or ``finish()`` is called.
    public init() {
        (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(Self.buffered))
    }

    /// The handler to give a transfer: each value it receives is delivered with its throughput.
    public var handler: @Sendable (TransferProgress) -> Void {
        { [state, continuation] progress in
            state.withLock { window in
                guard let estimated = window.add(progress, at: ContinuousClock.now) else { return }
                continuation.yield(estimated)
            }
        }
    }

    /// Runs `transfer` with ``handler``, then ends the sequence.
    /// - Parameter transfer: The transfer, given the handler to pass as its `progress`.
    /// - Returns: What `transfer` returns.
    /// - Throws: What `transfer` throws; the sequence ends either way.
    public func reporting<Result, Failure: Error>(
        _ transfer: (@escaping @Sendable (TransferProgress) -> Void) async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        defer { finish() }
        return try await transfer(handler)
    }

    /// Ends the sequence: a reader sees the values still buffered, then the end.
    public func finish() {
        continuation.finish()
    }

    /// Creates an iterator; the sequence has one reader.
    public func makeAsyncIterator() -> AsyncStream<TransferProgress>.Iterator {
        stream.makeAsyncIterator()
    }
}

/// The recent values of a transfer, for a throughput over the last two seconds.
struct ThroughputWindow {
    /// How far back the estimate looks.
    static let span: Duration = .seconds(2)

    private var samples: [(time: ContinuousClock.Instant, bytes: Int64)] = []
    private var last: TransferProgress?

    /// `progress` with its throughput, or `nil` when it is behind the last value in its direction.
    mutating func add(_ progress: TransferProgress, at now: ContinuousClock.Instant) -> TransferProgress? {
        if let last, last.direction == progress.direction, progress.completedBytes < last.completedBytes { return nil }
        if last?.direction != progress.direction { samples.removeAll() }
        last = progress
        // At most one sample every 50 ms: a window of about 40, however often progress comes.
        if samples.last.map({ now - $0.time >= .milliseconds(50) }) ?? true {
            samples.append((now, progress.completedBytes))
        }
        while samples.count > 2, let first = samples.first, now - first.time > Self.span { samples.removeFirst() }
        var estimated = progress
        if let first = samples.first, now > first.time {
            let seconds = (now - first.time) / .seconds(1)
            estimated.bytesPerSecond = Double(progress.completedBytes - first.bytes) / seconds
        }
        return estimated
    }
}
