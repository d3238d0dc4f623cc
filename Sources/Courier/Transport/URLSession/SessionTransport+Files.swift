import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SessionTransport {
    /// Sends a request whose body comes from a file, whose response body goes to a file, or both,
    /// with URLSession's upload and download tasks. A failed response's body, which a download task
    /// writes to the file too, comes back in memory.
    ///
    /// A body read from disk goes by an upload task from a file (``UploadFile``), which carries
    /// `Content-Length` on every platform; a file body that changed size on the way fails the
    /// call, whatever the server answered.
    func transfer(_ transfer: FileTransfer) async throws -> TransportResponse {
        let upload = try transfer.uploadFile()
        defer { upload?.remove() }
        let response: HTTPResponse
        let body: HTTPBody?
        do {
            (response, body) = try await transferring(transfer, upload: upload)
        } catch {
            // A file that shrank ends libcurl's upload with an error of its own: the size says why.
            if !Task.isCancelled { try upload?.checkUnchanged(sent: true) }
            throw error
        }
        try upload?.checkUnchanged(sent: true)
        if let destination = transfer.destination, response.status.kind != .successful {
            let failureBody = ResponseBody.readFailureBody(at: destination, upTo: transfer.bodyLimit)
            return TransportResponse(response: response, body: failureBody.isEmpty ? nil : HTTPBody(failureBody))
        }
        return TransportResponse(response: response, body: body)
    }

    private func transferring(_ transfer: FileTransfer, upload: UploadFile?) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try Self.urlRequest(for: transfer.request, origin: transfer.origin)
        if transfer.progress == nil, transfer.body == nil {
            return try await transferWithoutProgress(transfer, urlRequest: urlRequest, upload: upload)
        }
        let stream = upload == nil ? transfer.attachBody(to: &urlRequest) : nil
        let delegate = TransferDelegate(transfer: transfer, trust: self.delegate.trust, credentials: self.delegate.credentials, body: stream)
        let transferSession = URLSession(configuration: dataSession.configuration, delegate: delegate, delegateQueue: nil)
        defer { transferSession.finishTasksAndInvalidate() }

        let task: URLSessionTask
        if transfer.destination != nil {
            if stream == nil, let body = transfer.body {
                urlRequest.httpBody = try await Data(collecting: body, upTo: .max)
            }
            task = transferSession.downloadTask(with: urlRequest)
        } else if let upload {
            task = transferSession.uploadTask(with: urlRequest, fromFile: upload.url)
        } else {
            if let body = transfer.body { urlRequest.httpBody = try await Data(collecting: body, upTo: .max) }
            task = transferSession.dataTask(with: urlRequest)
        }
        let cancellable = UncheckedDataTask(task: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(cancellable, continuation: continuation)
            }
        } onCancel: {
            cancellable.cancelSoon()
        }
    }

    /// The same transfer through the client's own session and completion handlers: nobody listens
    /// for progress, so URLSession need not call a delegate for every piece it moves.
    private func transferWithoutProgress(
        _ transfer: FileTransfer,
        urlRequest: URLRequest,
        upload: UploadFile?
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let outcome = LockedState<CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>?>(nil)
        @Sendable func finish(_ result: Result<(HTTPResponse, HTTPBody?), any Error>) {
            outcome.withLock { continuation in
                continuation?.resume(with: result)
                continuation = nil
            }
        }
        // The 401 of a challenge, and a refused server, arrive as a cancellation; the delegate
        // remembers which.
        let started = LockedState<UncheckedDataTask?>(nil)
        @Sendable func challenged(_ error: any Error) throws -> URLResponse? {
            guard let task = started.withLock({ $0 })?.task,
                let outcome = delegate.challengeOutcome(identifier: task.taskIdentifier)
            else { throw error }
            switch outcome {
            case .unauthorized(let response): return response
            case .refused(let refusal): throw refusal
            }
        }
        let session = dataSession
        var request = urlRequest
        let stream = upload == nil ? transfer.attachBody(to: &request) : nil
        // A body that could not be read says why, rather than URLSession's own error.
        @Sendable func failed(_ error: any Error) throws -> URLResponse? {
            if let failure = stream?.failure { throw failure }
            return try challenged(error)
        }
        let task: URLSessionTask
        if let destination = transfer.destination {
            task = session.downloadTask(with: request) { location, response, error in
                finish(
                    Result {
                        if let error { return (try Self.response(from: try failed(error)), nil) }
                        guard let location else {
                            throw CourierError(.fileAccessFailed, message: "The download did not reach \(destination.path).")
                        }
                        try Self.moveDownload(at: location, to: destination)
                        return (try Self.response(from: response), nil)
                    })
            }
        } else if let upload {
            task = session.uploadTask(with: request, fromFile: upload.url) { data, response, error in
                finish(
                    Result {
                        if let error { return (try Self.response(from: try failed(error)), HTTPBody(data ?? Data())) }
                        let data = data ?? Data()
                        guard data.count <= transfer.bodyLimit else {
                            throw CourierError(
                                .responseTooLarge,
                                message: "The response body has \(data.count) bytes; the limit is \(transfer.bodyLimit)."
                            )
                        }
                        return (try Self.response(from: response), HTTPBody(data))
                    })
            }
        } else {
            throw CourierError(.invalidRequest, message: "A file transfer needs a file to read or to write.")
        }
        let cancellable = UncheckedDataTask(task: task)
        started.withLock { $0 = cancellable }
        // URLSession asks the session's delegate for the stream again when it resends the request.
        if let stream { delegate.register(stream, for: task) }
        defer { delegate.unregisterBody(of: task) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.withLock { $0 = continuation }
                cancellable.task.resume()
            }
        } onCancel: {
            cancellable.cancelSoon()
        }
    }

    /// Moves URLSession's temporary download to `destination`, replacing any file there.
    /// - Throws: ``CourierError/Kind/fileAccessFailed``.
    static func moveDownload(at location: URL, to destination: URL) throws(CourierError) {
        do {
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.moveItem(at: location, to: destination)
        } catch {
            throw CourierError(.fileAccessFailed, message: "The download could not be moved to \(destination.path).", underlyingError: error)
        }
    }
}

/// Receives one transfer's callbacks: progress, the downloaded file, the body of an answer kept in
/// memory, and the end.
// @unchecked: mutable state is only touched under `state`'s lock.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
    private struct State {
        var continuation: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>?
        var received = Data()
        var failure: (any Error)?
        var downloaded = false
        /// The task ended at an authentication challenge (see ``ChallengeOutcome``).
        var challenged: ChallengeOutcome?
    }

    private let transfer: FileTransfer
    private let trust: (any ServerTrustEvaluation)?
    private let credentials: ChallengeCredentials
    /// The body read from disk, whose failure is the transfer's.
    private let body: BodyStreamSource?
    private let state = LockedState(State())

    init(transfer: FileTransfer, trust: (any ServerTrustEvaluation)?, credentials: ChallengeCredentials, body: BodyStreamSource?) {
        self.transfer = transfer
        self.trust = trust
        self.credentials = credentials
        self.body = body
    }

    func start(_ task: UncheckedDataTask, continuation: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>) {
        state.withLock { $0.continuation = continuation }
        task.task.resume()
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // Courier follows redirects itself.
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void) {
        completionHandler(body?.makeStream())
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : transfer.length
        transfer.progress?(TransferProgress(direction: .upload, completedBytes: totalBytesSent, totalBytes: total))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
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
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession,
        downloadTask: URLSessionDownloadTask,
        didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        let total = totalBytesExpectedToWrite > 0 ? totalBytesExpectedToWrite : nil
        transfer.progress?(TransferProgress(direction: .download, completedBytes: totalBytesWritten, totalBytes: total))
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        guard let destination = transfer.destination else { return }
        do {
            try SessionTransport.moveDownload(at: location, to: destination)
            state.withLock { $0.downloaded = true }
        } catch {
            state.withLock { $0.failure = error }
        }
    }

    /// As ``SessionDelegate`` does: a 401's challenge is answered with the 401, a proxy's and a
    /// client-certificate challenge with the transport's credentials, a server's with its trust.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        ChallengeOutcome.answer(challenge, response: task.response, credentials: credentials, trust: trust, completionHandler: completionHandler) {
            [state] outcome in state.withLock { $0.challenged = outcome }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = state.withLock { state in
            defer { state.continuation = nil }
            var (failure, response) = (state.failure ?? body?.failure ?? error, task.response)
            switch state.challenged {
            case .unauthorized(let challengeResponse): (failure, response) = (state.failure, challengeResponse ?? response)
            case .refused(let refusal): failure = refusal
            case nil: break
            }
            return (state.continuation, (failure, response, state.received, state.downloaded || state.challenged != nil))
        }
        guard let continuation else { return }
        let (failure, urlResponse, received, downloaded) = outcome
        if let failure {
            continuation.resume(throwing: failure)
            return
        }
        do {
            let response = try SessionTransport.response(from: urlResponse)
            if let destination = transfer.destination {
                guard downloaded else {
                    throw CourierError(.fileAccessFailed, message: "The download did not reach \(destination.path).")
                }
                // The destination is the client's own partial file; the client reads a failed
                // answer's body from it.
                continuation.resume(returning: (response, nil))
            } else {
                continuation.resume(returning: (response, HTTPBody(received)))
            }
        } catch {
            continuation.resume(throwing: error)
        }
    }
}
