import Courier

/// A ``StubWebSocket`` as the client's transport sees it.
struct StubWebSocketConnection: WebSocketTransportConnection {
    let stub: StubWebSocket

    var events: AsyncThrowingStream<WebSocketTransportEvent, any Error> { stub.events }

    func send(_ message: WebSocketMessage) async throws {
        try stub.record(message)
    }

    func ping() async throws {
        stub.pinged()
    }

    func close(_ code: WebSocketCloseCode, reason: String) async {
        stub.clientClosed(code, reason: reason)
    }
}
