/// The running part of an open ``WebSocket``: the connection, the buffers each way, the task
/// that reads the transport's events and the one that pings.
///
/// The app's ``WebSocket`` handle closes it (1001) when it goes away; ``Client/cancelAll()``
/// reaches it through the client's ``WebSocketRegistry``.
final class WebSocketSession: Sendable {
    private struct State {
        var monitor: PingMonitor
        var reader: Task<Void, Never>?
        var pinger: Task<Void, Never>?
        /// Set once the socket is closing or closed, by either side.
        var ended = false
    }

    let connection: any WebSocketTransportConnection
    let inbox: WebSocketInbox
    let outbox: WebSocketOutbox
    private let clock: any Clock<Duration>
    private let state: LockedState<State>
    private let onEnd: @Sendable () -> Void

    init(
        connection: any WebSocketTransportConnection,
        configuration: WebSocketConfiguration,
        clock: any Clock<Duration>,
        onEnd: @escaping @Sendable () -> Void
    ) {
        self.connection = connection
        self.inbox = WebSocketInbox(limit: configuration.incomingBufferLimit)
        self.outbox = WebSocketOutbox(limit: configuration.outgoingBufferLimit, failsWhenFull: configuration.failsSendWhenFull)
        self.clock = clock
        self.state = LockedState(State(monitor: PingMonitor(policy: configuration.pingPolicy)))
        self.onEnd = onEnd
    }

    /// Starts reading events and pinging.
    func start() {
        let reader = Task { await self.read() }
        let pinger: Task<Void, Never>? = state.withLock { $0.monitor.policy.interval } == nil ? nil : Task { await self.ping() }
        state.withLock { state in
            state.reader = reader
            state.pinger = pinger
        }
    }

    /// Sends one message, within the outbox's limit: its room is taken until the connection has
    /// written it, even when its sender leaves first (cancelled), so the outbox bounds what the
    /// connection holds.
    func send(_ message: WebSocketMessage) async throws(CourierError) {
        // A task cancelled before it sends sends nothing, however fast the write would be.
        if Task.isCancelled { throw CourierError(.cancelled, message: "The task was cancelled; the message was not sent.") }
        let bytes = message.byteCount
        try await outbox.reserve(bytes)
        let write = WebSocketWrite()
        let outbox = self.outbox
        connection.send(message) { written in
            outbox.release(bytes)
            write.complete(written.mapError(Self.sendFailure))
        }
        try await write.wait()
    }

    /// Closes with `code` and `reason`; the reader's sequence ends normally after the messages
    /// already received. Returns once the transport has closed the connection.
    func close(_ code: WebSocketCloseCode, reason: String) async {
        guard end(inboxEnd: nil, sendEnd: .webSocket(.notConnected, closeCode: code, message: "The WebSocket was closed; the message was not sent.")) else { return }
        await connection.close(code, reason: reason)
    }

    /// ``close(_:reason:)`` without waiting: for cancellation handlers and `deinit`.
    func closeInBackground(_ code: WebSocketCloseCode, reason: String) {
        guard end(inboxEnd: nil, sendEnd: .webSocket(.notConnected, closeCode: code, message: "The WebSocket was closed; the message was not sent.")) else { return }
        let connection = self.connection
        Task { await connection.close(code, reason: reason) }
    }

    /// Marks the socket ended (once): the inbox and the outbox learn how, the pinger stops.
    /// Returns whether this call ended it.
    private func end(inboxEnd: CourierError?, sendEnd: CourierError) -> Bool {
        let pinger: Task<Void, Never>?? = state.withLock { state in
            guard !state.ended else { return .none }
            state.ended = true
            return .some(state.pinger)
        }
        guard case .some(let pinger) = pinger else { return false }
        pinger?.cancel()
        inbox.finish(inboxEnd)
        outbox.end(Self.sendFailure(after: sendEnd))
        onEnd()
        return true
    }

    /// What a send gets once the socket has ended: ``WebSocketFailure/Reason/notConnected``, with
    /// the close code and, underneath, the failure that ended it.
    static func sendFailure(after ending: CourierError) -> CourierError {
        guard let failure = ending.webSocket, failure.reason != .notConnected else { return ending }
        var error = CourierError.webSocket(
            .notConnected,
            closeCode: failure.closeCode,
            closeReason: failure.closeReason,
            message: "The WebSocket has ended (\(failure.reason)); the message was not sent."
        )
        error.underlyingError = ending
        return error
    }

    /// Reads the transport's events until the connection ends.
    private func read() async {
        do {
            for try await event in connection.events {
                switch event {
                case .message(let message):
                    guard inbox.append(message) else {
                        let error = CourierError.webSocket(
                            .readerTooSlow,
                            closeCode: .messageTooLarge,
                            message: "Received WebSocket messages waited unread past \(inbox.limit) bytes; the socket was closed."
                        )
                        if end(inboxEnd: error, sendEnd: error) {
                            await connection.close(.messageTooLarge, reason: "reader too slow")
                        }
                        return
                    }
                case .pong:
                    state.withLock { $0.monitor.pongReceived() }
                case .closed(let code, let reason):
                    let error = CourierError.webSocket(
                        .closedByServer,
                        closeCode: code,
                        closeReason: reason,
                        message: "The server closed the WebSocket (\(code)\(reason.isEmpty ? "" : ": \(reason)"))."
                    )
                    _ = end(inboxEnd: error, sendEnd: error)
                    return
                }
            }
            let error = CourierError.webSocket(.closedByServer, closeCode: .abnormalClosure, message: "The WebSocket connection ended without a close frame.")
            _ = end(inboxEnd: error, sendEnd: error)
        } catch {
            let failure = CourierError(error)
            _ = end(inboxEnd: failure, sendEnd: failure)
        }
    }

    /// Pings as the policy says; ends the socket when too many pongs are missed in a row.
    private func ping() async {
        let policy = state.withLock { $0.monitor.policy }
        guard let interval = policy.interval else { return }
        do {
            while !Task.isCancelled {
                try await clock.sleep(for: interval)
                state.withLock { $0.monitor.pingSent() }
                try await connection.ping()
                try await clock.sleep(for: policy.timeout)
                let dead = state.withLock { $0.monitor.timeoutPassed() }
                if dead {
                    let error = CourierError.webSocket(
                        .pingTimeout,
                        closeCode: .goingAway,
                        message: "The server answered no ping within \(policy.timeout) (\(policy.missedPongs) in a row); the WebSocket was closed."
                    )
                    if end(inboxEnd: error, sendEnd: error) {
                        await connection.close(.goingAway, reason: "ping timeout")
                    }
                    return
                }
            }
        } catch {
            // Cancelled with the socket, or the ping could not be written: the reader reports how it ended.
        }
    }

    private static func sendFailure(_ error: any Error) -> CourierError {
        let courierError = CourierError(error)
        if courierError.webSocket != nil { return courierError }
        var failure = CourierError.webSocket(.notConnected, message: "The WebSocket is not connected; the message was not sent.")
        failure.underlyingError = error
        return failure
    }
}
