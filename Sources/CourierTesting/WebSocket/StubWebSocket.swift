import Courier
import Foundation
import HTTPTypes

/// A scripted server side of one WebSocket, for testing an app's live screens without a network:
/// script what the server sends, when it closes or drops the connection; assert what the app sent.
///
/// ```swift
/// let transport = StubTransport()
/// let room = StubWebSocket()
/// transport.answerWebSocket(RequestMatcher(.get, "rooms/lobby/live"), with: room)
/// let chat = ChatService(client: Client(baseURL: "https://chat.example.com", transport: transport))
///
/// try room.receive(encoding: ChatLine(text: "welcome"))
/// let joined = Task { try await chat.join("lobby") }
/// try await room.waitForSent(count: 1)
/// room.close(WebSocketCloseCode(rawValue: 4000), reason: "room closed")
/// _ = try await joined.value
/// #expect(try room.sent(as: Join.self) == [Join(room: "lobby")])
/// ```
///
/// What is scripted before the app opens the socket waits for it, in order. One stub serves one
/// connection; register several for an app that reconnects.
public final class StubWebSocket: Sendable {
    private struct State {
        var sent: [WebSocketMessage] = []
        var clientClose: (code: WebSocketCloseCode, reason: String)?
        var handshake: HTTPRequest?
        var opened = false
        var ended = false
    }

    /// The answer to a handshake that is refused instead of opened.
    let refusal: (status: HTTPResponse.Status, body: Data)?
    let answersPings: Bool
    let events: AsyncThrowingStream<WebSocketTransportEvent, any Error>
    private let continuation: AsyncThrowingStream<WebSocketTransportEvent, any Error>.Continuation
    private let state = LockedState(State())

    /// A socket that opens.
    /// - Parameter answersPings: Whether the server answers the client's pings; `false` plays a
    ///   server that went silent.
    public init(answersPings: Bool = true) {
        (events, continuation) = AsyncThrowingStream.makeStream(of: WebSocketTransportEvent.self)
        self.refusal = nil
        self.answersPings = answersPings
    }

    private init(status: HTTPResponse.Status, body: Data) {
        (events, continuation) = AsyncThrowingStream.makeStream(of: WebSocketTransportEvent.self)
        continuation.finish()
        self.refusal = (status, body)
        self.answersPings = true
    }

    /// A handshake the server refuses: the client's `webSocket` fails with
    /// `WebSocketFailure.Reason.handshakeRefused`, this status and message.
    /// - Parameters:
    ///   - status: The status, e.g. `.forbidden`.
    ///   - message: The server's message, sent as `{"message": …}`.
    /// - Returns: The refusing stub.
    public static func refusing(_ status: HTTPResponse.Status, message: String = "") -> StubWebSocket {
        let body = (try? JSONEncoder().encode(["message": message])) ?? Data()
        return StubWebSocket(status: status, body: message.isEmpty ? Data() : body)
    }

    /// The server sends `message`.
    /// - Parameter message: The message.
    public func receive(_ message: WebSocketMessage) {
        continuation.yield(.message(message))
    }

    /// The server sends `value` as a JSON text message.
    /// - Parameters:
    ///   - value: The value.
    ///   - encoder: The encoder; a plain `JSONEncoder` by default.
    /// - Throws: The encoder's error.
    public func receive(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
        receive(.text(String(decoding: try encoder.encode(value), as: UTF8.self)))
    }

    /// The server closes the socket with `code` and `reason`: the app's messages end with
    /// `WebSocketFailure.Reason.closedByServer`.
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: The reason.
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        continuation.yield(.closed(code, reason: reason))
        continuation.finish()
        state.withLock { $0.ended = true }
    }

    /// The connection drops without a close frame (`WebSocketCloseCode.abnormalClosure`).
    public func drop() {
        continuation.finish(
            throwing: CourierError.webSocket(.closedByServer, closeCode: .abnormalClosure, message: "The WebSocket connection ended without a close frame.")
        )
        state.withLock { $0.ended = true }
    }

    /// The messages the app sent, in order.
    public var sent: [WebSocketMessage] {
        state.withLock { $0.sent }
    }

    /// The messages the app sent, each decoded from JSON as `Value`.
    /// - Parameters:
    ///   - type: The type of every message.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    /// - Returns: The decoded messages, in order.
    /// - Throws: The decoder's error for a message that is not a `Value`.
    public func sent<Value: Decodable>(as type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws -> [Value] {
        try sent.map { message in
            switch message {
            case .text(let text): try decoder.decode(Value.self, from: Data(text.utf8))
            case .binary(let data): try decoder.decode(Value.self, from: data)
            }
        }
    }

    /// Waits until the app has sent at least `count` messages, for scripting what the server does
    /// next.
    /// - Parameters:
    ///   - count: How many messages.
    ///   - bound: The longest wait; 10 s by default.
    /// - Returns: The messages the app sent.
    /// - Throws: A `CourierError` of kind `timedOut` when fewer arrived within `bound`.
    @discardableResult
    public func waitForSent(count: Int, within bound: Duration = .seconds(10)) async throws -> [WebSocketMessage] {
        let deadline = ContinuousClock.now + bound
        while ContinuousClock.now < deadline {
            let messages = sent
            if messages.count >= count { return messages }
            try await Task.sleep(for: .milliseconds(5))
        }
        let messages = sent
        guard messages.count >= count else {
            throw CourierError(.timedOut, message: "The app sent \(messages.count) WebSocket messages, not \(count), within \(bound).")
        }
        return messages
    }

    /// The code and reason the app closed the socket with, once it has.
    public var closedByClient: (code: WebSocketCloseCode, reason: String)? {
        state.withLock { $0.clientClose }
    }

    /// The handshake request as it reached the transport, after the client's middleware.
    public var handshake: HTTPRequest? {
        state.withLock { $0.handshake }
    }

    /// Whether the app has opened this socket.
    public var isOpened: Bool {
        state.withLock { $0.opened }
    }

    /// Marks the socket opened by `request`; `false` when it was opened before.
    func open(_ request: HTTPRequest) -> Bool {
        state.withLock { state in
            guard !state.opened else { return false }
            state.opened = true
            state.handshake = request
            return true
        }
    }

    /// Records a message from the app.
    func record(_ message: WebSocketMessage) throws(CourierError) {
        let recorded = state.withLock { state in
            guard !state.ended else { return false }
            state.sent.append(message)
            return true
        }
        guard recorded else { throw CourierError.webSocket(.notConnected, message: "The WebSocket is not connected; the message was not sent.") }
    }

    /// The app closed the socket.
    func clientClosed(_ code: WebSocketCloseCode, reason: String) {
        let first = state.withLock { state in
            defer { state.ended = true }
            if state.clientClose == nil, !state.ended { state.clientClose = (code, reason) }
            return !state.ended
        }
        if first { continuation.finish() }
    }

    /// A ping from the app: answered unless the stub plays a silent server.
    func pinged() {
        if answersPings { continuation.yield(.pong) }
    }
}
