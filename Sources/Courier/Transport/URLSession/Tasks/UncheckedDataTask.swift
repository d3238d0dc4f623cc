import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession task handed to a cancellation handler.
// @unchecked: `URLSessionTask` is thread-safe but not marked `Sendable` on every platform.
struct UncheckedDataTask: @unchecked Sendable {
    let task: URLSessionTask

    /// The queue that cancels tasks, away from whichever thread asked.
    private static let cancellation = DispatchQueue(label: "Courier.SessionTransport.cancellation")

    /// Cancels the task from ``cancellation``'s thread; see ``SessionTransport``.
    func cancelSoon() {
        Self.cancellation.async { task.cancel() }
    }

    /// Runs `work` on ``cancellation``'s thread: for anything that calls into URLSession from one
    /// of its own callbacks.
    static func elsewhere(_ work: @escaping @Sendable () -> Void) {
        cancellation.async(execute: work)
    }
}
