import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession transport's WebSocket side: `URLSessionWebSocketTask`.
///
/// URLSession performs the handshake itself, so a refusal's body is not available (its status
/// and header fields are). On Linux, swift-corelibs-foundation builds the task on libcurl's
/// WebSocket support; where libcurl has none, opening fails at once with
/// ``CourierError/Kind/transportFailed`` naming the remedy, the AsyncHTTPClient transport.
struct SessionWebSocketOpener: WebSocketTransport {
    let session: URLSession

    /// What opening says where the platform cannot open WebSockets.
    static let unsupportedMessage =
        "This platform's URLSession cannot open WebSockets (its libcurl has no ws/wss support). "
        + "Use the AsyncHTTPClient transport: transport: .asyncHTTPClient() from the CourierAsyncHTTPClient product."

    func openWebSocket(_ open: WebSocketOpenRequest) async throws -> WebSocketHandshake {
        let url = try Self.url(of: open)
        var urlRequest = URLRequest(url: url, timeoutInterval: Double(open.timeout.components.seconds))
        for field in open.request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        let task = session.webSocketTask(with: urlRequest)
        task.maximumMessageSize = open.maximumMessageSize
        let connection = SessionWebSocketConnection(task: task)
        task.resume()
        // Open once the first ping is answered; a refusal, or a platform that cannot, fails it.
        do {
            try await connection.firstPing()
        } catch {
            task.cancel()
            if let response = task.response as? HTTPURLResponse, response.statusCode != 101 {
                return WebSocketHandshake(response: Self.response(response))
            }
            if await Self.isUnsupported(task) {
                throw CourierError(.transportFailed, message: Self.unsupportedMessage, underlyingError: task.error ?? error)
            }
            throw error
        }
        let response = (task.response as? HTTPURLResponse).map(Self.response) ?? HTTPResponse(status: .switchingProtocols)
        connection.startReceiving()
        return WebSocketHandshake(response: response, connection: connection)
    }

    /// Whether the task failed because the platform has no WebSocket support (corelibs reports
    /// `unsupportedURL` on the task, a moment after the ping's own error).
    private static func isUnsupported(_ task: URLSessionWebSocketTask) async -> Bool {
        for _ in 0..<40 {
            if let error = task.error as NSError? {
                return error.domain == NSURLErrorDomain && error.code == NSURLErrorUnsupportedURL
            }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return false
    }

    /// The socket's URL: the request's target below the origin, `ws` or `wss`.
    private static func url(of open: WebSocketOpenRequest) throws(CourierError) -> URL {
        var origin = open.origin.absoluteString
        if origin.hasSuffix("/") { origin.removeLast() }
        if origin.lowercased().hasPrefix("https:") {
            origin = "wss:" + origin.dropFirst("https:".count)
        } else if origin.lowercased().hasPrefix("http:") {
            origin = "ws:" + origin.dropFirst("http:".count)
        }
        guard let url = URL(string: origin + (open.request.path ?? "/")) else {
            throw CourierError(.invalidRequest, message: "The WebSocket's URL is not valid.")
        }
        return url
    }

    private static func response(_ response: HTTPURLResponse) -> HTTPResponse {
        HTTPResponse(status: .init(code: response.statusCode), headerFields: SessionTransport.headerFields(of: response))
    }
}

extension SessionTransport {
    /// Opens WebSockets with `URLSessionWebSocketTask` on the session that carries this transport's
    /// trust (its roots and pins) and Courier's delegate.
    public var webSockets: (any WebSocketTransport)? {
        SessionWebSocketOpener(session: dataSession)
    }
}
