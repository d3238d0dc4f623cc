import Courier
import Foundation
import HTTPTypes

extension StubTransport {
    /// Opens handshakes that match `matcher` to `sockets`, one per handshake, in order; a
    /// handshake past the last is refused with 404. The handshake is recorded in ``requests``.
    ///
    /// ```swift
    /// transport.answerWebSocket(RequestMatcher(.get, "rooms/lobby/live"), with: first, second)
    /// ```
    /// - Parameters:
    ///   - matcher: Which handshakes.
    ///   - sockets: The scripted sockets.
    public func answerWebSocket(_ matcher: RequestMatcher, with sockets: StubWebSocket...) {
        webSocketRoutes.withLock { $0.append((matcher, sockets)) }
    }

    /// The stub's WebSocket side: the sockets registered with ``answerWebSocket(_:with:)``;
    /// `nil` for a stub made with `answersWebSockets: false`.
    public var webSockets: (any WebSocketTransport)? {
        answersWebSockets ? StubWebSocketOpener(transport: self) : nil
    }

    /// The socket for `request`: the first unopened one of the latest matching registration.
    func webSocket(for request: RecordedRequest) -> StubWebSocket? {
        record(request)
        return webSocketRoutes.withLock { routes in
            routes.last { $0.matcher.matches(request) }?.sockets.first { !$0.isOpened }
        }
    }
}

/// Opens a ``StubTransport``'s scripted sockets.
struct StubWebSocketOpener: WebSocketTransport {
    let transport: StubTransport

    func openWebSocket(_ open: WebSocketOpenRequest) async throws -> WebSocketHandshake {
        let recorded = RecordedRequest(
            method: open.request.method,
            origin: open.origin,
            target: open.request.path ?? "/",
            headerFields: open.request.headerFields,
            body: nil,
            name: "WebSocket"
        )
        guard let socket = transport.webSocket(for: recorded), socket.open(open.request) else {
            return WebSocketHandshake(response: HTTPResponse(status: .notFound), body: Data(#"{"message":"No WebSocket is scripted for this handshake."}"#.utf8))
        }
        if let refusal = socket.refusal {
            return WebSocketHandshake(response: HTTPResponse(status: refusal.status), body: refusal.body)
        }
        return WebSocketHandshake(
            response: HTTPResponse(status: .switchingProtocols, headerFields: [.upgrade: "websocket"]),
            connection: StubWebSocketConnection(stub: socket)
        )
    }
}
