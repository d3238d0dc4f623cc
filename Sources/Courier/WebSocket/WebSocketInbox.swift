/// The received messages that wait for the reader, bounded in bytes.
///
/// The transport's events are read at once into this buffer, so a slow reader never stalls the
/// connection's pings and close handling; past ``limit`` the socket is closed (1009) and the
/// reader, after the messages already here, is told why.
final class WebSocketInbox: Sendable {
    private struct State {
        var queue: [WebSocketMessage] = []
        var head = 0
        var bytes = 0
        /// How the sequence ends once the queue is drained: `nil` while open.
        var end: CourierError??
        var waiters: [CheckedContinuation<Result<WebSocketMessage?, CourierError>, Never>] = []
    }

    let limit: Int
    private let state = LockedState(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds a message for the reader; returns `false`, keeping nothing, when it would pass the
    /// limit.
    func append(_ message: WebSocketMessage) -> Bool {
        let waiter: CheckedContinuation<Result<WebSocketMessage?, CourierError>, Never>? = state.withLock { state in
            guard state.end == nil else { return nil }
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.queue.append(message)
            state.bytes += message.byteCount
            return nil
        }
        if let waiter {
            waiter.resume(returning: .success(message))
            return true
        }
        return state.withLock { state in
            guard state.bytes > limit else { return true }
            // The message that passed the limit is not kept: the reader learns it was dropped.
            let message = state.queue.removeLast()
            state.bytes -= message.byteCount
            return false
        }
    }

    /// Ends the sequence after the messages already here: with `error`, or normally for `nil`.
    /// The first end wins.
    func finish(_ error: CourierError?) {
        let waiters = state.withLock { state in
            guard state.end == nil else { return [CheckedContinuation<Result<WebSocketMessage?, CourierError>, Never>]() }
            state.end = .some(error)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: error.map { .failure($0) } ?? .success(nil)) }
    }

    /// Whether the sequence has ended (messages may still wait).
    var isFinished: Bool {
        state.withLock { $0.end != nil }
    }

    /// The next message; `nil` after a normal end; the end's error after the last message.
    func next() async throws(CourierError) -> WebSocketMessage? {
        let result: Result<WebSocketMessage?, CourierError> = await withCheckedContinuation { continuation in
            let ready: Result<WebSocketMessage?, CourierError>? = state.withLock { state in
                if state.head < state.queue.count {
                    let message = state.queue[state.head]
                    state.head += 1
                    state.bytes -= message.byteCount
                    if state.head == state.queue.count {
                        state.queue.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                    return .success(message)
                }
                if let end = state.end { return end.map { .failure($0) } ?? .success(nil) }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }
}
