import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An open `URLSessionWebSocketTask` as a ``WebSocketTransportConnection``: its messages and
/// pongs as events, its close code and reason once it closes.
final class SessionWebSocketConnection: WebSocketTransportConnection {
    // @unchecked: URLSessionWebSocketTask is thread-safe, but not declared Sendable everywhere.
    private struct TaskBox: @unchecked Sendable {
        let task: URLSessionWebSocketTask
    }

    let events: AsyncThrowingStream<WebSocketTransportEvent, any Error>
    private let continuation: AsyncThrowingStream<WebSocketTransportEvent, any Error>.Continuation
    private let box: TaskBox

    init(task: URLSessionWebSocketTask) {
        (events, continuation) = AsyncThrowingStream.makeStream(of: WebSocketTransportEvent.self)
        box = TaskBox(task: task)
    }

    /// Waits for the answer to a first ping: the socket is open.
    func firstPing() async throws {
        let box = self.box
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            box.task.sendPing { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Reads messages into ``events`` until the task ends.
    func startReceiving() {
        receiveNext()
    }

    private func receiveNext() {
        let box = self.box
        let continuation = self.continuation
        box.task.receive { [weak self] result in
            switch result {
            case .success(.string(let text)):
                continuation.yield(.message(.text(text)))
                self?.receiveNext()
            case .success(.data(let data)):
                continuation.yield(.message(.binary(data)))
                self?.receiveNext()
            case .success:
                self?.receiveNext()
            case .failure(let error):
                let code = box.task.closeCode
                if code != .invalid {
                    let reason = box.task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
                    continuation.yield(.closed(WebSocketCloseCode(rawValue: UInt16(clamping: code.rawValue)), reason: reason))
                    continuation.finish()
                } else {
                    var failure = CourierError.webSocket(.closedByServer, closeCode: .abnormalClosure, message: "The WebSocket connection ended without a close frame.")
                    failure.underlyingError = error
                    continuation.finish(throwing: failure)
                }
            }
        }
    }

    func send(_ message: WebSocketMessage) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            send(message) { continuation.resume(with: $0) }
        }
    }

    func send(_ message: WebSocketMessage, written: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let outgoing: URLSessionWebSocketTask.Message
        switch message {
        case .text(let text): outgoing = .string(text)
        case .binary(let data): outgoing = .data(data)
        }
        box.task.send(outgoing) { error in
            guard let error else { return written(.success(())) }
            var failure = CourierError.webSocket(.notConnected, message: "The WebSocket is not connected; the message was not sent.")
            failure.underlyingError = error
            written(.failure(failure))
        }
    }

    func ping() async throws {
        let continuation = self.continuation
        box.task.sendPing { error in
            if error == nil { continuation.yield(.pong) }
        }
    }

    func close(_ code: WebSocketCloseCode, reason: String) async {
        let closeCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
        box.task.cancel(with: closeCode, reason: Data(reason.utf8.prefix(123)))
        continuation.finish()
    }
}
