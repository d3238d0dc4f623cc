// Only the AsyncHTTPClient build of the benchmark runs the WebSocket workload.
#if AsyncHTTPClient
import Courier

/// One timed round of echo round trips, one worker per open WebSocket, each sending and awaiting
/// its echo in turn.
///
/// The clock starts once every worker's socket is open (or has failed to open), so handshakes stay
/// out of the figures, and stops when the last worker's last round trip is back, before the
/// sockets close. CPU time and context switches are the process's over the same window.
final class EchoRound: Sendable {
    /// An echo that differs from the message sent.
    struct WrongEcho: Error {}

    private struct State {
        var arrived: Set<Int> = []
        var waiting: [CheckedContinuation<ContinuousClock.Instant, Never>] = []
        var started: ContinuousClock.Instant?
        var usageAtStart = ProcessUsage()
        var ended: ContinuousClock.Instant?
        var usageAtEnd = ProcessUsage()
        var total = LoadRunner.Sample()
    }

    /// The workers held back until the last one arrived, and the round's deadline.
    private struct Start {
        var waiting: [CheckedContinuation<ContinuousClock.Instant, Never>]
        var deadline: ContinuousClock.Instant

        /// Lets the waiting workers go; called outside the lock.
        func resumeAll() {
            for continuation in waiting { continuation.resume(returning: deadline) }
        }
    }

    /// How many workers (sockets) the round waits for.
    let sockets: Int
    /// How long round trips are started for, from the moment the last socket is open.
    let duration: Duration
    private let state = LockedState(State())

    init(sockets: Int, duration: Duration) {
        self.sockets = sockets
        self.duration = duration
    }

    /// Waits for the other workers' sockets, then runs `roundTrip` until the deadline. A round
    /// trip that fails counts as an error and ends the worker: its socket is gone.
    /// - Parameters:
    ///   - worker: The worker's number, from 0 to `sockets - 1`.
    ///   - roundTrip: Sends one message and returns once its echo is back.
    func measure(worker: Int, _ roundTrip: () async throws -> Void) async {
        let deadline = await arrive(worker)
        var sample = LoadRunner.Sample()
        sample.latenciesMicroseconds.reserveCapacity(4096)
        while ContinuousClock.now < deadline {
            let issued = ContinuousClock.now
            do {
                try await roundTrip()
            } catch {
                sample.errors += 1
                break
            }
            sample.requests += 1
            sample.latenciesMicroseconds.append((ContinuousClock.now - issued).microseconds)
        }
        let ended = ContinuousClock.now
        let usage = ProcessUsage.now()
        state.withLock { state in
            state.total.add(sample)
            if state.ended.map({ ended > $0 }) ?? true {
                state.ended = ended
                state.usageAtEnd = usage
            }
        }
    }

    /// Called once a worker is done: when it never measured (its socket did not open), it counts
    /// one error and no longer holds back the others. Does nothing for a worker that measured.
    /// - Parameter worker: The worker's number.
    func leave(worker: Int) {
        let start: Start? = state.withLock { state in
            guard !state.arrived.contains(worker) else { return nil }
            state.total.errors += 1
            return enter(worker, &state)
        }
        start?.resumeAll()
    }

    /// The round's figures, once every worker has measured or left.
    var sample: LoadRunner.Sample {
        state.withLock { state in
            var total = state.total
            if let started = state.started, let ended = state.ended {
                total.elapsed = ended - started
                total.usage = state.usageAtEnd.since(state.usageAtStart)
            }
            return total
        }
    }

    /// Waits until every worker has arrived (or left); returns the round's deadline.
    private func arrive(_ worker: Int) async -> ContinuousClock.Instant {
        await withCheckedContinuation { continuation in
            let start: Start? = state.withLock { state in
                state.waiting.append(continuation)
                return enter(worker, &state)
            }
            start?.resumeAll()
        }
    }

    /// Counts `worker` in; when it is the last, starts the clock and returns who waits for it.
    private func enter(_ worker: Int, _ state: inout State) -> Start? {
        state.arrived.insert(worker)
        guard state.arrived.count == sockets, state.started == nil else { return nil }
        let now = ContinuousClock.now
        state.started = now
        state.usageAtStart = ProcessUsage.now()
        defer { state.waiting = [] }
        return Start(waiting: state.waiting, deadline: now + duration)
    }
}
#endif
