import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of Courier's URLSessions: refuses redirects (Courier follows them itself, so
/// credentials never follow one to another origin), answers an HTTP authentication challenge with
/// its 401 at once, a proxy's and a client-certificate challenge with the transport's credentials,
/// applies the transport's ``ServerTrust`` to server-trust challenges, and hands
/// each data task's events to the ``DataTaskEvents`` registered for it, and each upload's and
/// download's to its ``TransferTaskHandler``.
// @unchecked: mutable state is only touched under the locks of `handlers`, `transfers`,
// `challenged` and `bodies`.
final class SessionDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
    private let handlers = LockedState<[Int: any DataTaskEvents]>([:])
    /// The uploads and downloads that report progress, until they complete.
    private let transfers = LockedState<[Int: TransferTaskHandler]>([:])
    /// How tasks without a handler (completion-handler tasks) ended at a challenge.
    private let challenged = LockedState<[Int: ChallengeOutcome]>([:])
    /// The bodies of tasks that send a stream, which URLSession may ask for again.
    private let bodies = LockedState<[Int: BodyStreamSource]>([:])
    /// What server-trust challenges are answered with; `nil` leaves them to the platform.
    let trust: (any ServerTrustEvaluation)?
    /// What a proxy's or a server's request for credentials is answered with.
    let credentials: ChallengeCredentials

    /// Creates a delegate.
    /// - Parameters:
    ///   - trust: Applied to server-trust challenges; `nil` for the platform's usual checks.
    ///   - credentials: A client certificate and proxy credentials, presented when asked for.
    init(trust: (any ServerTrustEvaluation)? = nil, credentials: ChallengeCredentials = ChallengeCredentials()) {
        self.trust = trust
        self.credentials = credentials
    }

    /// A session with a copy of `configuration`, this delegate and Courier's delegate queue.
    ///
    /// The copy keeps no cookies and asks no credential storage: cookies follow the client's
    /// ``Configuration/cookieJar`` and credentials its middleware, whatever the app's session does.
    func session(configuration: URLSessionConfiguration) -> URLSession {
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        copy.httpCookieStorage = nil
        copy.httpShouldSetCookies = false
        copy.httpCookieAcceptPolicy = .never
        copy.urlCredentialStorage = nil
        return URLSession(configuration: copy, delegate: self, delegateQueue: DelegateQueue())
    }

    /// Sends `task`'s events to `handler` until the task completes.
    func register(_ handler: any DataTaskEvents, for task: URLSessionTask) {
        handlers.withLock { $0[task.taskIdentifier] = handler }
    }

    /// Sends `task`'s events, an upload's or a download's, to `handler` until the task completes.
    func register(_ handler: TransferTaskHandler, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = handler }
    }

    /// Answers URLSession's requests for `task`'s body stream from `body` until the task is forgotten.
    func register(_ body: BodyStreamSource, for task: URLSessionTask) {
        bodies.withLock { $0[task.taskIdentifier] = body }
    }

    /// Forgets the body of a task that has ended.
    func unregisterBody(of task: URLSessionTask) {
        bodies.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// Forgets a task that was never started.
    func unregister(_ task: URLSessionTask) {
        handlers.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// How a task without a handler ended at a challenge, if it did: its 401, which stands for the
    /// cancellation its completion handler was given, or the refusal of the server. Forgets the task.
    func challengeOutcome(identifier: Int) -> ChallengeOutcome? {
        challenged.withLock { $0.removeValue(forKey: identifier) }
    }

    private func handler(of task: URLSessionTask) -> (any DataTaskEvents)? {
        handlers.withLock { $0[task.taskIdentifier] }
    }

    private func transfer(of task: URLSessionTask) -> TransferTaskHandler? {
        transfers.withLock { $0[task.taskIdentifier] }
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

    func urlSession(_ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void) {
        completionHandler(bodies.withLock { $0[task.taskIdentifier] }?.makeStream())
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
        if let handler = handler(of: dataTask) {
            handler.received(data)
        } else {
            transfer(of: dataTask)?.received(data, task: dataTask)
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(of: task)?.sent(totalBytesSent: totalBytesSent, totalBytesExpectedToSend: totalBytesExpectedToSend)
    }

    func urlSession(
        _ session: URLSession,
        downloadTask: URLSessionDownloadTask,
        didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        transfer(of: downloadTask)?.wrote(totalBytesWritten: totalBytesWritten, totalBytesExpectedToWrite: totalBytesExpectedToWrite)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        transfer(of: downloadTask)?.finishedDownloading(to: location)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let handler = handler(of: task), let timeline = TransactionTimeline(metrics) else { return }
        handler.collected(timeline)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let handler = handlers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        // A task without a handler (a WebSocket) leaves no challenge outcome behind.
        challenged.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
        handler?.completed(task.response, error: error)
        transfer?.completed(task, error: error)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let identifier = task.taskIdentifier
        ChallengeOutcome.answer(challenge, response: task.response, credentials: credentials, trust: trust, completionHandler: completionHandler) {
            [handlers, transfers, challenged] outcome in
            if let handler = handlers.withLock({ $0.removeValue(forKey: identifier) }) {
                switch outcome {
                case .unauthorized(let response): handler.completed(response, error: nil)
                case .refused(let error): handler.completed(nil, error: error)
                }
            } else if let transfer = transfers.withLock({ $0[identifier] }) {
                // URLSession completes the task as cancelled; the handler says why then.
                transfer.challenged(outcome)
            } else {
                challenged.withLock { $0[identifier] = outcome }
            }
        }
    }
}
