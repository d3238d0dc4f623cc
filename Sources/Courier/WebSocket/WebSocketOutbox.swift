/// The bytes of messages on their way out, bounded: a send waits (in order) for room, or fails
/// when the socket was configured so, and every waiting send fails when the socket ends.
final class WebSocketOutbox: Sendable {
    private struct Waiter {
        let id: UInt64
        let bytes: Int
        let continuation: CheckedContinuation<Result<Void, CourierError>, Never>
    }

    private struct State {
        var inFlight = 0
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        var ended: CourierError?
    }

    let limit: Int
    let failsWhenFull: Bool
    private let state = LockedState(State())

    init(limit: Int, failsWhenFull: Bool) {
        self.limit = limit
        self.failsWhenFull = failsWhenFull
    }

    /// Whether `bytes` more fit now: always when nothing is in flight, so one message larger than
    /// the limit goes out alone.
    private static func fits(_ bytes: Int, _ state: State, limit: Int) -> Bool {
        state.inFlight == 0 || state.inFlight + bytes <= limit
    }

    /// Takes room for `bytes`, waiting behind earlier sends while the outbox is full.
    /// - Throws: ``WebSocketFailure/Reason/notConnected`` when the socket ended or, with
    ///   `failsWhenFull`, when there is no room; ``CourierError/Kind/cancelled`` when the waiting
    ///   task is cancelled.
    func reserve(_ bytes: Int) async throws(CourierError) {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let result: Result<Void, CourierError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: Result<Void, CourierError>? = state.withLock { state in
                    if let ended = state.ended { return .failure(ended) }
                    if state.waiters.isEmpty, Self.fits(bytes, state, limit: limit) {
                        state.inFlight += bytes
                        return .success(())
                    }
                    if failsWhenFull {
                        return .failure(.webSocket(.notConnected, message: "The WebSocket's outgoing buffer is full (\(limit) bytes); the message was not sent."))
                    }
                    if Task.isCancelled { return .failure(CourierError(.cancelled)) }
                    state.waiters.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: .failure(CourierError(.cancelled, message: "The message was not sent.")))
        }
        try result.get()
    }

    /// Gives back the room of a message written (or failed), and lets waiting sends through in order.
    func release(_ bytes: Int) {
        let ready = state.withLock { state -> [Waiter] in
            state.inFlight -= bytes
            var ready: [Waiter] = []
            while let first = state.waiters.first, Self.fits(first.bytes, state, limit: limit) {
                state.waiters.removeFirst()
                state.inFlight += first.bytes
                ready.append(first)
            }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: .success(())) }
    }

    /// Fails every waiting send and every later one with `error`.
    func end(_ error: CourierError) {
        let waiters = state.withLock { state -> [Waiter] in
            if state.ended == nil { state.ended = error }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(error)) }
    }

    /// Bytes reserved and not yet released.
    var bytesInFlight: Int {
        state.withLock { $0.inFlight }
    }

    /// Sends waiting for room, in the order they will be let through: their sizes in bytes.
    var waitingSends: [Int] {
        state.withLock { $0.waiters.map(\.bytes) }
    }
}
