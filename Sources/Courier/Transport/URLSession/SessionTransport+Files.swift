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
        let handler = TransferTaskHandler(transfer: transfer, body: stream)
        let task: URLSessionTask
        if transfer.destination != nil {
            if stream == nil, let body = transfer.body {
                urlRequest.httpBody = try await Data(collecting: body, upTo: .max)
            }
            task = dataSession.downloadTask(with: urlRequest)
        } else if let upload {
            task = dataSession.uploadTask(with: urlRequest, fromFile: upload.url)
        } else {
            if let body = transfer.body { urlRequest.httpBody = try await Data(collecting: body, upTo: .max) }
            task = dataSession.dataTask(with: urlRequest)
        }
        // The transport's own session, whose delegate passes the task's events on: the transfer
        // shares its connections with every other request.
        delegate.register(handler, for: task)
        if let stream { delegate.register(stream, for: task) }
        defer { delegate.unregisterBody(of: task) }
        let cancellable = UncheckedDataTask(task: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                handler.start(cancellable, continuation: continuation)
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
        // Settled by the completion handler, or kept until the call waits for it (a task cancelled
        // before it started may complete first).
        let outcome = LockedState(Pending<(HTTPResponse, HTTPBody?)>())
        @Sendable func finish(_ result: Result<(HTTPResponse, HTTPBody?), any Error>) {
            guard let (continuation, result) = outcome.withLock({ $0.settle(result) }).resume else { return }
            continuation.resume(with: result)
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
                if outcome.wait(at: \.self, continuation, cancelTask: { cancellable.cancelSoon() }) {
                    cancellable.task.resume()
                }
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
