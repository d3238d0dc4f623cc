import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Courier's transport over `URLSession`: the default on every platform.
///
/// On Apple platforms ordinary calls go through swift-openapi-urlsession's `URLSessionTransport`;
/// on Linux they go through `URLSession.data(for:)`, with both bodies buffered in memory. Uploads
/// from a file (``RequestBody/file(_:contentType:)``) and downloads to a file
/// (``Client/download(_:to:progress:)``) use URLSession's own upload and download tasks instead,
/// which stream from and to disk, so memory stays constant on every platform.
///
/// ```swift
/// let client = Client(baseURL: base, transport: .urlSession(mySession))
/// ```
///
/// On Linux, URLSession scales to about 16 requests in flight; for servers and command-line tools
/// there, prefer the AsyncHTTPClient transport from the `CourierAsyncHTTPClient` product.
public struct SessionTransport: ClientTransport {
    /// The session requests are sent with.
    public let session: URLSession
    private let base: URLSessionTransport

    /// Creates the transport.
    /// - Parameter session: The session to send with. Courier follows redirects itself (see
    ///   ``Configuration/redirectLimit``) only when the session does not: give a session whose
    ///   delegate refuses them, as `URLSession.courierShared`'s does.
    public init(session: URLSession = .courierShared) {
        self.session = session
        self.base = URLSessionTransport(configuration: .init(session: session))
    }

    /// Sends a request with bodies held in memory.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        #if canImport(FoundationNetworking)
        try await sendBuffered(request, body: body, origin: baseURL)
        #else
        try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        #endif
    }

    /// One request through `URLSession.data(for:)`, the body collected first.
    ///
    /// On Linux swift-openapi-urlsession buffers bodies too, but through a completion-handler task
    /// of its own making; URLSession's async `data(for:)` does the same work with less left behind
    /// per request (resident memory in `courier-bench --soak`).
    private func sendBuffered(_ request: HTTPRequest, body: HTTPBody?, origin: URL) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try Self.urlRequest(for: request, origin: origin)
        if let body { urlRequest.httpBody = try await Data(collecting: body, upTo: .max) }
        try Task.checkCancellation()
        let (data, response) = try await session.data(for: urlRequest)
        return (try Self.response(from: response), HTTPBody(data))
    }
}

extension SessionTransport: FileTransferTransport {
    package func transfer(_ transfer: FileTransfer) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try Self.urlRequest(for: transfer.request, origin: transfer.origin)
        if transfer.progress == nil, transfer.body == nil {
            return try await transferWithoutProgress(transfer, urlRequest: urlRequest)
        }
        let delegate = TransferDelegate(transfer: transfer)
        let transferSession = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: nil)
        defer { transferSession.finishTasksAndInvalidate() }

        let task: URLSessionTask
        if transfer.destination != nil {
            if let file = transfer.bodyFile {
                urlRequest.httpBodyStream = InputStream(url: file)
            } else if let body = transfer.body {
                urlRequest.httpBody = try await Data(collecting: body, upTo: .max)
            }
            task = transferSession.downloadTask(with: urlRequest)
        } else if let file = transfer.bodyFile {
            task = transferSession.uploadTask(with: urlRequest, fromFile: file)
        } else {
            if let body = transfer.body { urlRequest.httpBody = try await Data(collecting: body, upTo: .max) }
            task = transferSession.dataTask(with: urlRequest)
        }
        let cancellable = UncheckedTask(task: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(cancellable, continuation: continuation)
            }
        } onCancel: {
            cancellable.task.cancel()
        }
    }

    /// The same transfer through the client's own session and completion handlers: nobody listens
    /// for progress, so URLSession need not call a delegate for every piece it moves.
    private func transferWithoutProgress(
        _ transfer: FileTransfer,
        urlRequest: URLRequest
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let outcome = LockedState<CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>?>(nil)
        @Sendable func finish(_ result: Result<(HTTPResponse, HTTPBody?), any Error>) {
            outcome.withLock { continuation in
                continuation?.resume(with: result)
                continuation = nil
            }
        }
        let task: URLSessionTask
        if let destination = transfer.destination {
            var request = urlRequest
            if let file = transfer.bodyFile { request.httpBodyStream = InputStream(url: file) }
            task = session.downloadTask(with: request) { location, response, error in
                finish(
                    Result {
                        if let error { throw error }
                        guard let location else {
                            throw CourierError(.fileAccessFailed, message: "The download did not reach \(destination.path).")
                        }
                        try Self.moveDownload(at: location, to: destination)
                        return (try Self.response(from: response), nil)
                    })
            }
        } else if let file = transfer.bodyFile {
            task = session.uploadTask(with: urlRequest, fromFile: file) { data, response, error in
                finish(
                    Result {
                        if let error { throw error }
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
        let cancellable = UncheckedTask(task: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.withLock { $0 = continuation }
                cancellable.task.resume()
            }
        } onCancel: {
            cancellable.task.cancel()
        }
    }

    static func urlRequest(for request: HTTPRequest, origin: URL) throws -> URLRequest {
        let target = origin.absoluteString + (request.path ?? "/")
        guard let url = URL(string: target) else {
            throw CourierError(.invalidRequest, message: "\(target) is not a valid URL.")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        return urlRequest
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

    static func response(from urlResponse: URLResponse?) throws -> HTTPResponse {
        guard let http = urlResponse as? HTTPURLResponse else {
            throw CourierError(.invalidResponse, message: "The server's answer was not an HTTP response.")
        }
        var fields = HTTPFields()
        for (key, value) in http.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: http.statusCode), headerFields: fields)
    }
}

/// A URLSession task handed to a cancellation handler.
// @unchecked: `URLSessionTask` is thread-safe but not marked `Sendable` on every platform.
private struct UncheckedTask: @unchecked Sendable {
    let task: URLSessionTask
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
    }

    private let transfer: FileTransfer
    private let state = LockedState(State())

    init(transfer: FileTransfer) {
        self.transfer = transfer
    }

    func start(_ task: UncheckedTask, continuation: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>) {
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

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil
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

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, (state.failure ?? error, state.received, state.downloaded))
        }
        guard let continuation else { return }
        let (failure, received, downloaded) = outcome
        if let failure {
            continuation.resume(throwing: failure)
            return
        }
        do {
            let response = try SessionTransport.response(from: task.response)
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

extension ClientTransport where Self == SessionTransport {
    /// The URLSession transport: Courier's default on every platform.
    ///
    /// On Linux, URLSession buffers ordinary bodies and scales to about 16 requests in flight; for
    /// servers and command-line tools there, prefer the AsyncHTTPClient transport from the
    /// `CourierAsyncHTTPClient` product.
    /// - Parameter session: The session to send with; `URLSession.courierShared` by
    ///   default.
    /// - Returns: A transport for ``Client``.
    public static func urlSession(_ session: URLSession = .courierShared) -> SessionTransport {
        SessionTransport(session: session)
    }
}

extension URLSession {
    /// The session Courier's URLSession transport uses unless given another: the default
    /// configuration without a URL cache, and a delegate that leaves redirects to Courier, so that
    /// credentials never follow a redirect to another origin. Created on first use and kept for
    /// the process.
    ///
    /// No `URLCache`: a response is never served from, or kept in, a cache the app did not ask
    /// for (on Linux the shared cache also grew resident memory by about 150 bytes per request in
    /// the soak). Pass your own session to ``OpenAPIRuntime/ClientTransport/urlSession(_:)`` to use one.
    public static let courierShared = URLSession(
        configuration: courierConfiguration(),
        delegate: RedirectRefusingDelegate(),
        delegateQueue: nil
    )
}

extension URLSession {
    /// `URLSessionConfiguration.default` without a URL cache.
    static func courierConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }
}

/// Hands every redirect response back to the caller instead of following it.
final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
