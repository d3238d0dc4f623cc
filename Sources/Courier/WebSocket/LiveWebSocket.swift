import Foundation

/// A WebSocket that stays connected: opened again after a drop, as its
/// ``WebSocketReconnectPolicy`` says, with a hook that resubscribes on every opening.
///
/// ```swift
/// let live = chat.liveWebSocket(Request<Void>(.get, "rooms/lobby/live")) { socket in
///     try await socket.send(encoding: Subscribe(room: "lobby"))   // after every (re)connect
/// }
/// for try await message in live.messages { show(message) }
/// ```
///
/// With a ``ConnectivityMonitor``, a live socket that lost its network waits for the network
/// instead of spending its tries, and reconnects as soon as the monitor reports it back, without
/// waiting out its back-off.
///
/// ``messages`` runs across reconnects and ends with the error that ended the live socket, or
/// normally after ``close(_:reason:)``. A ``send(_:)`` while the socket is reconnecting waits for
/// the next opening and is delivered once then; if the live socket ends first it throws
/// (``WebSocketFailure/Reason/notConnected``): a message is never lost silently.
public final class LiveWebSocket: Sendable {
    private struct State {
        var socket: WebSocket?
        var waiters: [UInt64: CheckedContinuation<WebSocket?, Never>] = [:]
        var nextWaiter: UInt64 = 0
        var ended = false
        var runner: Task<Void, Never>?
    }

    /// What the live socket goes through: connecting, open, reconnecting (attempt and delay), closed.
    public let events: AsyncStream<WebSocketEvent>
    /// The server's messages, across reconnects.
    public let messages: AsyncThrowingStream<WebSocketMessage, any Error>
    private let eventSink: AsyncStream<WebSocketEvent>.Continuation
    private let messageSink: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
    private let state = LockedState(State())

    init(
        open: @escaping @Sendable () async throws(CourierError) -> WebSocket,
        policy: WebSocketReconnectPolicy,
        clock: any Clock<Duration>,
        connectivity: (any ConnectivityMonitor)?,
        onOpen: @escaping @Sendable (WebSocket) async throws -> Void
    ) {
        (events, eventSink) = AsyncStream.makeStream(of: WebSocketEvent.self)
        (messages, messageSink) = AsyncThrowingStream.makeStream(of: WebSocketMessage.self)
        let runner = Task {
            await self.run(open: open, policy: policy, clock: clock, connectivity: connectivity, onOpen: onOpen)
        }
        state.withLock { $0.runner = runner }
    }

    /// Opens, relays and reopens the socket until the policy or the app says stop.
    private func run(
        open: @Sendable () async throws(CourierError) -> WebSocket,
        policy: WebSocketReconnectPolicy,
        clock: any Clock<Duration>,
        connectivity: (any ConnectivityMonitor)?,
        onOpen: @Sendable (WebSocket) async throws -> Void
    ) async {
        var retries = 0
        while !isEnded {
            eventSink.yield(.connecting(attempt: retries + 1))
            let started = ContinuousClock.now
            let ending: CourierError?
            do {
                let socket = try await open()
                try await onOpen(socket)
                guard opened(socket) else {
                    await socket.close(.normalClosure)
                    return
                }
                eventSink.yield(.open)
                ending = await relay(socket)
            } catch {
                ending = CourierError(error)
            }
            if ContinuousClock.now - started >= policy.stablePeriod { retries = 0 }
            retries += 1
            guard !isEnded, WebSocketReconnectPolicy.reconnects(after: ending), retries <= policy.maximumAttempts else {
                finish(isEnded ? nil : ending)
                return
            }
            let delay = policy.delay(attempt: retries, random: Double.random(in: 0..<1))
            // Read from before the event on, so that a change reported right after it counts.
            let changes = connectivity?.changes()
            eventSink.yield(.reconnecting(attempt: retries, delay: delay))
            do {
                guard let connectivity, let changes else {
                    try await clock.sleep(for: delay)
                    continue
                }
                if try await Self.wait(delay, on: clock, orUntilOnline: connectivity, changes: changes) == .networkReturned {
                    // A network that came back is a fresh start: its tries are not the old ones.
                    retries = 0
                }
            } catch {
                finish(nil)
                return
            }
        }
    }

    /// How a wait before reconnecting ended.
    private enum WaitEnd: Equatable {
        case delayPassed, networkReturned
    }

    /// Waits before the next opening: `delay` while the monitor reports a network, cut short when
    /// one comes back; while it reports none, until one does, however long that takes (no try is
    /// spent on a device that is offline).
    /// - Throws: `CancellationError` when the live socket was closed meanwhile.
    private static func wait(
        _ delay: Duration,
        on clock: any Clock<Duration>,
        orUntilOnline connectivity: any ConnectivityMonitor,
        changes: AsyncStream<Bool>
    ) async throws -> WaitEnd {
        if await !connectivity.isConnected() {
            for await connected in changes where connected { return .networkReturned }
            try Task.checkCancellation()
            return .networkReturned
        }
        return try await withThrowingTaskGroup(of: WaitEnd.self) { group in
            group.addTask {
                try await clock.sleep(for: delay)
                return .delayPassed
            }
            group.addTask {
                for await connected in changes where connected { return .networkReturned }
                // The monitor reports nothing more: the delay decides.
                try await clock.sleep(for: delay)
                return .delayPassed
            }
            defer { group.cancelAll() }
            return try await group.next() ?? .delayPassed
        }
    }

    /// Sends a message on the open socket, or on the next one while reconnecting.
    /// - Parameter message: The message.
    /// - Throws: ``WebSocketFailure/Reason/notConnected`` when the live socket ended (or the socket
    ///   it was sent on ended before writing it): the message was not sent.
    public func send(_ message: WebSocketMessage) async throws(CourierError) {
        guard let socket = await currentSocket() else {
            throw .webSocket(.notConnected, message: "The live WebSocket has ended; the message was not sent.")
        }
        try await socket.send(message)
    }

    /// Closes the socket with `code` and `reason` and stops reconnecting; ``messages`` ends
    /// normally.
    /// - Parameters:
    ///   - code: The close code; ``WebSocketCloseCode/normalClosure`` by default.
    ///   - reason: A short reason for the server.
    public func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        let (socket, runner) = state.withLock { state in
            state.ended = true
            return (state.socket, state.runner)
        }
        // The socket first: cancelling the runner while it reads would close the socket with 1001.
        await socket?.close(code, reason: reason)
        runner?.cancel()
        finish(nil)
    }

    private var isEnded: Bool {
        state.withLock { $0.ended }
    }

    /// The open socket, or the next one; `nil` once the live socket ended.
    private func currentSocket() async -> WebSocket? {
        let id: UInt64 = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withCheckedContinuation { continuation in
            let ready: WebSocket?? = state.withLock { state in
                if let socket = state.socket { return .some(socket) }
                if state.ended { return .some(nil) }
                state.waiters[id] = continuation
                return .none
            }
            if case .some(let socket) = ready { continuation.resume(returning: socket) }
        }
    }

    /// Makes `socket` the current one and wakes waiting sends; `false` when the live socket ended meanwhile.
    private func opened(_ socket: WebSocket) -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<WebSocket?, Never>]? in
            guard !state.ended else { return nil }
            state.socket = socket
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: socket) }
        return true
    }

    private func socketEnded() {
        state.withLock { $0.socket = nil }
    }

    /// Hands the socket's messages on until it ends; returns how it ended.
    private func relay(_ socket: WebSocket) async -> CourierError? {
        defer { socketEnded() }
        do {
            for try await message in socket.messages { messageSink.yield(message) }
            return nil
        } catch {
            return CourierError(error)
        }
    }

    /// Ends the live socket: waiting sends fail, the messages end (with `error`), the last event.
    private func finish(_ error: CourierError?) {
        let waiters = state.withLock { state -> [CheckedContinuation<WebSocket?, Never>] in
            state.ended = true
            state.socket = nil
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        messageSink.finish(throwing: error)
        eventSink.yield(.closed(error?.kind))
        eventSink.finish()
    }
}
