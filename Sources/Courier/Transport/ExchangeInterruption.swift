/// What ends an exchange before its response has arrived without cancelling the task that waits
/// for it: the attempt's deadline, or ``Client/cancelAll()``.
///
/// A ``Transport`` receives it in ``TransportRequest/interruption`` and ends the exchange when it
/// fires, usually by cancelling the work that carries the exchange (a URLSession data task) from
/// ``withHandler(_:onInterrupt:)``. Because the transport ends the
/// exchange itself, the client runs an attempt in the caller's own task: no task per attempt, and
/// no thread hop when its response arrives. A transport whose work can only be ended by cancelling
/// a task runs it in ``run(_:)``, which gives it a task of its own.
///
/// A timed-out attempt throws ``CourierError/Kind/timedOut`` while the call goes on (a retry may
/// follow); the caller's task is never cancelled by an interruption.
///
/// ```swift
/// func send(_ request: TransportRequest) async throws -> TransportResponse {
///     try await request.interruption.run {
///         try await myLegacyClient.send(request)
///     }
/// }
/// ```
public struct ExchangeInterruption: Sendable {
    /// `nil` for an exchange that nothing but its task's cancellation ends.
    let signal: Signal?

    /// When the client interrupts the exchange at the latest, if it has not ended by then: the
    /// attempt's deadline, read on `ContinuousClock`. `nil` when no deadline interrupts it, or when
    /// the client keeps time on a clock of its own (``Configuration/clock``), whose deadlines
    /// say nothing of real time.
    ///
    /// A transport with a deadline of its own (a timer for the response head) need not start it
    /// when this comes first.
    public let deadline: ContinuousClock.Instant?

    /// No interruption: only the cancellation of the waiting task ends the exchange.
    public static let none = ExchangeInterruption(signal: nil, deadline: nil)

    init(signal: Signal?, deadline: ContinuousClock.Instant?) {
        self.signal = signal
        self.deadline = deadline
    }

    /// A new interruption, fired by ``interrupt()``.
    /// - Parameter deadline: When the client fires it at the latest, if known in real time.
    static func make(deadline: ContinuousClock.Instant? = nil) -> ExchangeInterruption {
        ExchangeInterruption(signal: Signal(), deadline: deadline)
    }

    /// Whether the exchange has been interrupted.
    public var isInterrupted: Bool {
        signal?.isInterrupted ?? false
    }

    /// Runs `operation` with `onInterrupt` called once if the exchange is interrupted meanwhile: at
    /// once, before `operation` starts, when it already is. The handler must be quick and must not
    /// wait; it usually cancels the work `operation` waits for.
    /// - Parameters:
    ///   - operation: The exchange, in the caller's task.
    ///   - onInterrupt: Ends the exchange.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    nonisolated(nonsending) public func withHandler<Value>(
        _ operation: nonisolated(nonsending) () async throws -> Value,
        onInterrupt: @escaping @Sendable () -> Void
    ) async throws -> Value {
        guard let signal else { return try await operation() }
        let registration = signal.add(onInterrupt)
        defer { if let registration { signal.remove(registration) } }
        return try await operation()
    }

    /// Runs `operation` in a task of its own that an interruption cancels, and waits for it;
    /// cancelling the waiting task cancels it too. Without an interruption (``none``) it runs in
    /// the caller's task.
    /// - Parameter operation: The exchange.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws; `CancellationError` when interrupted before it started.
    nonisolated(nonsending) public func run<Value: Sendable>(
        _ operation: sending @escaping () async throws -> Value
    ) async throws -> Value {
        guard let signal else { return try await operation() }
        let task = ImmediateTask.start(operation)
        let registration = signal.add { task.cancel() }
        defer { if let registration { signal.remove(registration) } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Fires the interruption: every handler registered, and any registered later, is called once.
    func interrupt() {
        signal?.interrupt()
    }

    /// The shared state: whether it fired, and the handlers waiting for it.
    final class Signal: Sendable {
        private struct State {
            var interrupted = false
            var nextID: UInt64 = 0
            /// Most exchanges register one handler at a time: it is kept here, without an allocation.
            var first: (id: UInt64, handler: @Sendable () -> Void)?
            var more: [UInt64: @Sendable () -> Void] = [:]
        }

        private let state = LockedState(State())

        var isInterrupted: Bool {
            state.withLock { $0.interrupted }
        }

        /// Registers `handler`; calls it at once, and returns `nil`, when the signal fired already.
        func add(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
            let id = state.withLock { state -> UInt64? in
                guard !state.interrupted else { return nil }
                state.nextID += 1
                if state.first == nil {
                    state.first = (state.nextID, handler)
                } else {
                    state.more[state.nextID] = handler
                }
                return state.nextID
            }
            if id == nil { handler() }
            return id
        }

        func remove(_ id: UInt64) {
            state.withLock { state in
                if state.first?.id == id {
                    state.first = nil
                } else {
                    state.more.removeValue(forKey: id)
                }
            }
        }

        func interrupt() {
            let handlers = state.withLock { state -> [@Sendable () -> Void] in
                guard !state.interrupted else { return [] }
                state.interrupted = true
                defer { (state.first, state.more) = (nil, [:]) }
                return (state.first.map { [$0.handler] } ?? []) + state.more.values
            }
            for handler in handlers { handler() }
        }
    }
}

extension ExchangeInterruption.Signal: CancellableWork {
    func cancel() {
        interrupt()
    }
}
