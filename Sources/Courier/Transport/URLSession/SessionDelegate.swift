import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of Courier's URLSessions: refuses redirects (Courier follows them itself, so
/// credentials never follow one to another origin), answers authentication challenges without
/// waiting, and hands each data task's events to the ``DataTaskEvents`` registered for it.
// @unchecked: mutable state is only touched under the locks of `handlers` and `challenged`.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let handlers = LockedState<[Int: any DataTaskEvents]>([:])
    /// Tasks without a handler (completion-handler tasks) whose 401 challenge was cancelled.
    private let challenged = LockedState<Set<Int>>([])

    /// The delegate queue for a session with this delegate: on Linux an ``InlineDelegateQueue``,
    /// which keeps a body over its limit out of memory; elsewhere URLSession's own.
    static func queue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
        InlineDelegateQueue()
        #else
        nil
        #endif
    }

    /// Sends `task`'s events to `handler` until the task completes.
    func register(_ handler: any DataTaskEvents, for task: URLSessionTask) {
        handlers.withLock { $0[task.taskIdentifier] = handler }
    }

    /// Forgets a task that was never started.
    func unregister(_ task: URLSessionTask) {
        handlers.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// Whether `task` ended because its 401 challenge was cancelled: its response is the 401, not
    /// the cancellation its completion handler was given. Forgets the task.
    func tookChallenge(identifier: Int) -> Bool {
        challenged.withLock { $0.remove(identifier) != nil }
    }

    private func handler(of task: URLSessionTask) -> (any DataTaskEvents)? {
        handlers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        handler(of: dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        handler(of: dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let handler = handlers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        handler?.completed(task.response, error: error)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        Self.answer(completionHandler) {
            if let handler = handlers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
                handler.completed(task.response, error: nil)
            } else {
                challenged.withLock { _ = $0.insert(task.taskIdentifier) }
            }
        }
    }

    /// How Courier's delegates answer a challenge. Every challenge gets the platform's default
    /// handling, except on Linux: there an HTTP authentication challenge (a 401 with
    /// `WWW-Authenticate`; server trust is never asked) is raised once the whole 401 has arrived
    /// and, unless answered with a credential, either waits forever or cancels the task
    /// (swift-corelibs-foundation#5456). Courier's middleware handles 401s, so `deliverResponse`
    /// hands the 401 on and the challenge is cancelled.
    static func answer(
        _ completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void,
        deliverResponse: () -> Void
    ) {
        #if canImport(FoundationNetworking)
        deliverResponse()
        // Cancelling waits on URLSession's queue, which may be the one running this callback.
        UncheckedDataTask.elsewhere { completionHandler(.cancelAuthenticationChallenge, nil) }
        #else
        completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
