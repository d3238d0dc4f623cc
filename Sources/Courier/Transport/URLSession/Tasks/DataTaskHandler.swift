import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a data task reports, as ``SessionDelegate`` passes it on. Called on URLSession's delegate
/// queue, one event at a time.
protocol DataTaskEvents: AnyObject, Sendable {
    /// The response head arrived.
    func received(_ response: URLResponse)
    /// A piece of the body arrived, content-decoded.
    func received(_ data: Data)
    /// The task ended: `error` is `nil` when the whole response arrived.
    func completed(_ response: URLResponse?, error: (any Error)?)
    /// The task's metrics arrived (Apple platforms, before the task ends).
    func collected(_ timeline: TransactionTimeline)
}

extension DataTaskEvents {
    func collected(_ timeline: TransactionTimeline) {}
}

/// Turns one data task's events into a result for the task that waits for it.
protocol DataTaskHandler: DataTaskEvents {
    associatedtype Output: Sendable

    /// Starts waiting: `continuation` is resumed exactly once, at once when the handler already
    /// has its outcome (the call was cancelled first). `cancelTask` stops the URLSession task when
    /// the handler needs no more of it.
    /// - Returns: Whether the URLSession task should be started.
    func start(_ continuation: CheckedContinuation<Output, any Error>, cancelTask: @escaping @Sendable () -> Void) -> Bool

    /// The call was cancelled: its wait ends now with `CancellationError`.
    func cancel()
}
