/// A request started with a completion handler: keep it to cancel the request.
///
/// ```swift
/// friendsTask?.cancel()
/// friendsTask = friends.load(for: currentUser) { result in
///     switch result {
///     case .success(let users): show(users)
///     case .failure(let error): showAlert(error.localizedDescription)
///     }
/// }
/// ```
///
/// The completion handler runs exactly once, on the main actor. After ``cancel()`` it runs with
/// ``CourierError/Kind/cancelled`` (unless it had already run), never with a success.
public final class RequestHandle: Sendable {
    private struct State {
        var isCancelled = false
        var isFinished = false
        var task: Task<Void, Never>?
    }

    private let state = LockedState(State())

    private init() {}

    /// Starts `operation` and reports its result to `completion` on the main actor.
    ///
    /// Services use this to offer a completion-handler call next to each async one:
    ///
    /// ```swift
    /// func load(for user: User, completion: @escaping @MainActor @Sendable (Result<[User], CourierError>) -> Void) -> RequestHandle {
    ///     RequestHandle.start({ try await self.load(for: user) }, completion: completion)
    /// }
    /// ```
    /// - Parameters:
    ///   - operation: The async work; an error it throws is delivered as a ``CourierError``.
    ///   - completion: Called once with the result.
    /// - Returns: The handle that cancels the work.
    @discardableResult
    public static func start<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value,
        completion: @escaping @MainActor @Sendable (Result<Value, CourierError>) -> Void
    ) -> RequestHandle {
        let handle = RequestHandle()
        let task = Task {
            let result: Result<Value, CourierError>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(CourierError(error))
            }
            await MainActor.run { handle.deliver(result, to: completion) }
        }
        handle.state.withLock { $0.task = task }
        return handle
    }

    /// Cancels the request. Safe to call more than once, from any thread, at any time.
    public func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard !state.isFinished else { return nil }
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// `true` once ``cancel()`` was called before the request finished.
    public var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    @MainActor
    private func deliver<Value>(
        _ result: Result<Value, CourierError>,
        to completion: @MainActor (Result<Value, CourierError>) -> Void
    ) {
        let wasCancelled = state.withLock { state in
            state.isFinished = true
            return state.isCancelled
        }
        completion(wasCancelled ? .failure(CourierError(.cancelled)) : result)
    }
}
