import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives the events of one upload or download task that reports progress, as
/// ``SessionDelegate`` passes them on: progress, the downloaded file, the body of an answer kept
/// in memory, how a challenge ended it, and the end. The task runs in the transport's own session,
/// whose connections every other request shares.
///
/// Progress goes to the caller's handler through a ``ProgressRelay``, off URLSession's thread; the
/// waiting call resumes after the last value is delivered.
// @unchecked: mutable state is only touched under `state`'s lock.
final class TransferTaskHandler: @unchecked Sendable {
    private struct State {
        var pending = Pending<(HTTPResponse, HTTPBody?)>()
        var received = Data()
        var failure: (any Error)?
        var downloaded = false
        /// The task ended at an authentication challenge (see ``ChallengeOutcome``).
        var challenged: ChallengeOutcome?
    }

    private let transfer: FileTransfer
    /// The body read from disk, whose failure is the transfer's.
    private let body: BodyStreamSource?
    private let progress: ProgressRelay?
    private let state = LockedState(State())

    /// Creates a handler for `transfer`, whose body stream, if it sends one, is `body`.
    init(transfer: FileTransfer, body: BodyStreamSource?) {
        self.transfer = transfer
        self.body = body
        self.progress = transfer.progress.map(ProgressRelay.init)
    }

    /// Starts `task`; `continuation` is resumed once it ends, at once when it ended already (the
    /// call was cancelled before it started).
    func start(_ task: UncheckedDataTask, continuation: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>) {
        if state.wait(at: \.pending, continuation, cancelTask: { task.cancelSoon() }) {
            task.task.resume()
        }
    }

    /// Bytes of the request body went out.
    func sent(totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : transfer.length
        progress?.report(TransferProgress(direction: .upload, completedBytes: totalBytesSent, totalBytes: total))
    }

    /// A piece of the response body of an upload kept in memory arrived; a body over the limit
    /// cancels `task`.
    func received(_ data: Data, task: URLSessionTask) {
        let tooLarge = state.withLock { state -> Bool in
            guard state.received.count + data.count <= transfer.bodyLimit else {
                state.failure = CourierError(
                    .responseTooLarge,
                    message: "The response body is larger than the limit of \(transfer.bodyLimit) bytes."
                )
                return true
            }
            state.received.append(data)
            return false
        }
        if tooLarge { UncheckedDataTask(task: task).cancelSoon() }
    }

    /// Bytes of a download were written to URLSession's temporary file.
    func wrote(totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        let total = totalBytesExpectedToWrite > 0 ? totalBytesExpectedToWrite : nil
        progress?.report(TransferProgress(direction: .download, completedBytes: totalBytesWritten, totalBytes: total))
    }

    /// A download is complete at `location`, which URLSession removes once this returns.
    func finishedDownloading(to location: URL) {
        guard let destination = transfer.destination else { return }
        do {
            try SessionTransport.moveDownload(at: location, to: destination)
            state.withLock { $0.downloaded = true }
        } catch {
            state.withLock { $0.failure = error }
        }
    }

    /// The task ends at a challenge the delegate answered: URLSession completes it as cancelled.
    func challenged(_ outcome: ChallengeOutcome) {
        state.withLock { $0.challenged = outcome }
    }

    /// The task ended; the waiting call resumes once the last progress is delivered.
    func completed(_ task: URLSessionTask, error: (any Error)?) {
        let result = outcome(response: task.response, error: error)
        guard let progress else {
            settle(result)
            return
        }
        progress.afterDelivery { [self] in settle(result) }
    }

    private func settle(_ result: Result<(HTTPResponse, HTTPBody?), any Error>) {
        guard let (continuation, result) = state.withLock({ $0.pending.settle(result) }).resume else { return }
        continuation.resume(with: result)
    }

    private func outcome(response: URLResponse?, error: (any Error)?) -> Result<(HTTPResponse, HTTPBody?), any Error> {
        let (failure, urlResponse, received, downloaded) = state.withLock { state in
            var (failure, response) = (state.failure ?? body?.failure ?? error, response)
            switch state.challenged {
            case .unauthorized(let challengeResponse): (failure, response) = (state.failure, challengeResponse ?? response)
            case .refused(let refusal): failure = refusal
            case nil: break
            }
            return (failure, response, state.received, state.downloaded || state.challenged != nil)
        }
        if let failure { return .failure(failure) }
        return Result {
            let response = try SessionTransport.response(from: urlResponse)
            guard let destination = transfer.destination else { return (response, HTTPBody(received)) }
            guard downloaded else {
                throw CourierError(.fileAccessFailed, message: "The download did not reach \(destination.path).")
            }
            // The destination is the client's own partial file; the client reads a failed answer's
            // body from it.
            return (response, nil)
        }
    }
}
