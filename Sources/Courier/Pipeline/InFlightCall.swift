/// One call registered with its client's ``InFlightRequests``: counted in ``Client/activity``
/// until it ends, and reached by ``Client/cancelAll()`` through the tasks it runs.
struct InFlightCall: Sendable {
    let registry: InFlightRequests
    /// The registry's generation when the call began: a ``Client/cancelAll()`` since then
    /// cancelled it.
    let generation: UInt64

    /// Runs `operation` in a task of this call that ``Client/cancelAll()`` can cancel, and waits for
    /// it; cancelling the waiting task cancels it too. The middleware fold runs this way: a
    /// middleware may wait on anything (a throttle, a back-off, a token refresh), and only task
    /// cancellation ends such waits.
    ///
    /// Where the platform has `Task.immediate`, the task starts on the calling thread and runs until
    /// it first suspends. The work is registered before it starts, so a ``Client/cancelAll()`` at
    /// any moment reaches it.
    /// - Parameter operation: The work.
    /// - Returns: The work's value.
    /// - Throws: `CancellationError` without starting the work when ``Client/cancelAll()`` has
    ///   cancelled the call; otherwise the work's error.
    nonisolated(nonsending) func run<Value: Sendable>(
        _ operation: sending @escaping () async throws -> Value
    ) async throws -> Value {
        guard let id = registry.insert(for: self, deadline: nil, clock: .continuous) else { throw CancellationError() }
        let task = ImmediateTask.start(operation)
        registry.attach(id, task)
        defer { registry.remove(id) }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Runs `operation` in the calling task, with an interruption that ``Client/cancelAll()`` and
    /// `deadline` fire; the transport ends the exchange when it does (see ``ExchangeInterruption``).
    ///
    /// This is how each attempt runs: no task of its own, so no thread hop when its response
    /// arrives, and the caller's task is never cancelled by a deadline.
    /// - Parameters:
    ///   - deadline: When the interruption fires, if the work has not finished, on `clock`.
    ///   - clock: The clock `deadline` is read on.
    ///   - timeoutError: Thrown instead of the work's own error when the deadline interrupted it.
    ///   - operation: The work, given the interruption to hand to the transport.
    /// - Returns: The work's value.
    /// - Throws: `CancellationError` without starting the work when ``Client/cancelAll()`` has
    ///   cancelled the call; otherwise the work's error, or `timeoutError`.
    nonisolated(nonsending) func interruptible<Value>(
        deadline: Duration,
        clock: ElapsedClock,
        timeoutError: @autoclosure () -> any Error,
        _ operation: nonisolated(nonsending) (ExchangeInterruption) async throws -> Value
    ) async throws -> Value {
        // The signal exists before the work is registered, so it is registered with it.
        let signal = ExchangeInterruption.Signal()
        guard let id = registry.insert(for: self, deadline: deadline, clock: clock, task: signal) else { throw CancellationError() }
        let interruption = ExchangeInterruption(signal: signal, deadline: clock.continuousInstant(at: deadline))
        do {
            let value = try await operation(interruption)
            registry.remove(id)
            return value
        } catch {
            if registry.remove(id) && !Task.isCancelled { throw timeoutError() }
            throw error
        }
    }

    /// Waits for the call's turn in a per-host line (``Configuration/maximumCallsPerHost``): until
    /// `ticket` is admitted, the task is cancelled, ``Client/cancelAll()`` cancels the call, or
    /// `deadline` passes. A call that stops waiting leaves the line at once.
    /// - Parameters:
    ///   - ticket: The call's place in `queue`.
    ///   - queue: The line.
    ///   - deadline: When waiting ends, on `clock`.
    ///   - clock: The clock `deadline` is read on.
    ///   - timeoutError: Thrown when the deadline ended the wait.
    /// - Throws: `CancellationError`, or `timeoutError`.
    nonisolated(nonsending) func waitForTurn(
        _ ticket: HostCallQueue.Ticket,
        in queue: HostCallQueue,
        deadline: Duration,
        clock: ElapsedClock,
        timeoutError: @autoclosure () -> any Error
    ) async throws {
        guard let id = registry.insert(for: self, deadline: deadline, clock: clock, task: ticket) else {
            queue.release(ticket)
            throw CancellationError()
        }
        do {
            try await queue.wait(ticket)
            registry.remove(id)
        } catch {
            if registry.remove(id) && !Task.isCancelled { throw timeoutError() }
            throw error
        }
    }

    /// Ends the call: it no longer counts as in flight.
    func end() {
        registry.end(self)
    }
}
