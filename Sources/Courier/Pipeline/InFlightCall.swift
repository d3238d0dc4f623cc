/// One call registered with its client's ``InFlightRequests``: counted in ``Client/activity``
/// until it ends, and reached by ``Client/cancelAll()`` through the tasks it runs.
struct InFlightCall: Sendable {
    let registry: InFlightRequests
    /// The registry's generation when the call began: a ``Client/cancelAll()`` since then
    /// cancelled it.
    let generation: UInt64

    /// Runs `operation` in a task of this call that ``Client/cancelAll()`` and `deadline` can
    /// cancel, and waits for it; cancelling the waiting task cancels it too.
    ///
    /// Where the platform has `Task.immediate`, the task starts on the calling thread and runs until
    /// it first suspends: work that never waits (a stubbed or instant response) costs no thread hop.
    /// The work is registered before it starts, so a ``Client/cancelAll()`` at any moment reaches it.
    /// - Parameters:
    ///   - deadline: When the work is cancelled, if it has not finished, on `clock`.
    ///   - clock: The clock `deadline` is read on.
    ///   - timeoutError: Thrown instead of the work's own error when the deadline cancelled it.
    ///   - operation: The work.
    /// - Returns: The work's value.
    /// - Throws: `CancellationError` without starting the work when ``Client/cancelAll()`` has
    ///   cancelled the call; otherwise the work's error, or `timeoutError`.
    nonisolated(nonsending) func run<Value: Sendable>(
        deadline: Duration?,
        clock: ElapsedClock = .continuous,
        timeoutError: @autoclosure () -> any Error = CancellationError(),
        _ operation: sending @escaping () async throws -> Value
    ) async throws -> Value {
        guard let id = registry.insert(for: self, deadline: deadline, clock: clock) else { throw CancellationError() }
        let task = Self.startTask(operation)
        registry.attach(id, task)
        do {
            let value = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
            registry.remove(id)
            return value
        } catch {
            if registry.remove(id) && !Task.isCancelled { throw timeoutError() }
            throw error
        }
    }

    /// Ends the call: it no longer counts as in flight.
    func end() {
        registry.end(self)
    }

    /// A task running `operation`, started on the calling thread where the platform can.
    private static func startTask<Value: Sendable>(
        _ operation: sending @escaping () async throws -> Value
    ) -> Task<Value, any Error> {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.immediate(operation: operation)
        }
        #endif
        return Task(operation: operation)
    }
}
