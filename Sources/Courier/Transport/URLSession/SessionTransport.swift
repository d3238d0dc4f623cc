import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Courier's transport over `URLSession`: the default on every platform.
///
/// On Apple platforms ordinary calls go through swift-openapi-urlsession's `URLSessionTransport`.
/// On Linux they go through data tasks of Courier's own, whose delegate
/// receives the body piece by piece: a body past the client's size limit stops the transfer, a 401
/// challenge is answered with the 401 itself, and cancelling never calls into URLSession on the
/// cancelling thread. Uploads from a file (``RequestBody/file(_:contentType:)``) and downloads to
/// a file (``Client/download(_:to:progress:)``) use URLSession's own upload and download tasks,
/// which stream from and to disk.
///
/// ```swift
/// let client = Client(baseURL: base, transport: .urlSession(mySession))
/// ```
///
/// On Linux, URLSession scales to about 16 requests in flight; for servers and command-line tools
/// there, prefer the AsyncHTTPClient transport from the `CourierAsyncHTTPClient` product.
public struct SessionTransport: ClientTransport, BodyCollectingTransport {
    /// The session requests are sent with.
    public let session: URLSession
    private let base: URLSessionTransport
    #if canImport(FoundationNetworking)
    /// The session data tasks run in: `session` when its delegate is Courier's, otherwise one made
    /// with `session`'s configuration and Courier's delegate.
    let dataSession: URLSession
    let delegate: SessionDelegate
    #endif

    /// Creates the transport.
    /// - Parameter session: The session to send with. Courier follows redirects itself (see
    ///   ``Configuration/redirectLimit``) only when the session does not: give a session whose
    ///   delegate refuses them, as `URLSession.courierShared`'s does.
    public init(session: URLSession = .courierShared) {
        self.session = session
        self.base = URLSessionTransport(configuration: .init(session: session))
        #if canImport(FoundationNetworking)
        if let delegate = session.delegate as? SessionDelegate {
            self.delegate = delegate
            self.dataSession = session
        } else {
            let delegate = SessionDelegate()
            self.delegate = delegate
            self.dataSession = URLSession(
                configuration: session.configuration,
                delegate: delegate,
                delegateQueue: SessionDelegate.queue()
            )
        }
        #endif
    }

    /// Sends a request; the response body streams as it arrives.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        #if canImport(FoundationNetworking)
        let urlRequest = try await Self.urlRequest(for: request, body: body, origin: baseURL)
        return try await run(urlRequest, handler: StreamingTaskHandler())
        #else
        try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        #endif
    }

    /// Sends a request and reads its whole body, stopping the transfer once the body passes
    /// `limit` bytes (after content decoding).
    package func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        collectingUpTo limit: Int
    ) async throws -> (HTTPResponse, HTTPBody.ByteChunk) {
        #if canImport(FoundationNetworking)
        let urlRequest = try await Self.urlRequest(for: request, body: body, origin: baseURL)
        return try await run(urlRequest, handler: CollectingTaskHandler(limit: limit))
        #else
        let (response, responseBody) = try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
        return (response, try await ResponseBody.bytes(of: responseBody, upTo: limit))
        #endif
    }

    #if canImport(FoundationNetworking)
    /// Runs one data task, its events going to `handler`, until the handler has its result.
    ///
    /// Cancellation ends the wait at once and cancels the URLSession task from another thread:
    /// `URLSessionTask.cancel()` waits on URLSession's queue, whose thread may be resuming a task
    /// at that moment (swift-corelibs-foundation#5412).
    private func run<Handler: DataTaskHandler>(_ urlRequest: URLRequest, handler: Handler) async throws -> Handler.Output {
        let task = UncheckedDataTask(task: dataSession.dataTask(with: urlRequest))
        delegate.register(handler, for: task.task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if handler.start(continuation, cancelTask: { task.cancelSoon() }) {
                    task.task.resume()
                } else {
                    delegate.unregister(task.task)
                }
            }
        } onCancel: {
            handler.cancel()
            task.cancelSoon()
        }
    }
    #endif

    /// The `URLRequest` for `request` below `origin`, its body read into memory.
    static func urlRequest(for request: HTTPRequest, body: HTTPBody?, origin: URL) async throws -> URLRequest {
        var urlRequest = try urlRequest(for: request, origin: origin)
        if let body { urlRequest.httpBody = try await Data(collecting: body, upTo: .max) }
        try Task.checkCancellation()
        return urlRequest
    }

    static func urlRequest(for request: HTTPRequest, origin: URL) throws -> URLRequest {
        let target = origin.absoluteString + (request.path ?? "/")
        guard let url = URL(string: target) else {
            throw CourierError(.invalidRequest, message: "The request's URL is not valid.")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // Cookies are the client's business (``Configuration/cookieJar``), never the session's jar.
        urlRequest.httpShouldHandleCookies = false
        for field in request.headerFields where field.name != .cookie {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        // HTTPFields keeps each cookie as a field of its own; HTTP/1.1 wants one `Cookie` line,
        // joined with "; " (URLRequest would join them with ", ").
        if let cookies = request.headerFields[.cookie] {
            urlRequest.setValue(cookies, forHTTPHeaderField: HTTPField.Name.cookie.rawName)
        }
        return urlRequest
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

extension ClientTransport where Self == SessionTransport {
    /// The URLSession transport: Courier's default on every platform.
    ///
    /// On Linux, URLSession scales to about 16 requests in flight; for servers and command-line
    /// tools there, prefer the AsyncHTTPClient transport from the `CourierAsyncHTTPClient` product.
    /// - Parameter session: The session to send with; `URLSession.courierShared` by default.
    /// - Returns: A transport for ``Client``.
    public static func urlSession(_ session: URLSession = .courierShared) -> SessionTransport {
        SessionTransport(session: session)
    }
}
