import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends a request again when ``RetryPolicy`` says so, waiting in between.
///
/// Each attempt passes through the middleware after this one, with
/// ``MiddlewareContext/attempt`` counting up. The waits are cancellable: cancelling the request
/// during one ends it at once with ``CourierError/Kind/cancelled``.
///
/// ```swift
/// let api = Client(baseURL: "https://api.example.com") {
///     $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 3))]
/// }
/// ```
public struct RetryMiddleware: Middleware {
    /// The policy that decides.
    public let policy: RetryPolicy
    private let clock: ElapsedClock
    private let random: @Sendable () -> Double
    private let budget: LockedState<RetryBudget?>

    /// Creates the middleware.
    /// - Parameters:
    ///   - policy: When to retry; ``RetryPolicy/exponential(maxAttempts:backoff:)`` by default.
    ///   - clock: What waits are measured with; tests pass a test clock.
    public init(_ policy: RetryPolicy = .exponential(), clock: some Clock<Duration> = ContinuousClock()) {
        self.init(policy, clock: clock, random: { Double.random(in: 0..<1) })
    }

    init(_ policy: RetryPolicy, clock: some Clock<Duration>, random: @escaping @Sendable () -> Double) {
        self.policy = policy
        self.clock = ElapsedClock(clock)
        self.random = random
        self.budget = LockedState(policy.budget)
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        var context = context
        let replayable = body.map { $0.iterationBehavior == .multiple } ?? true
        while true {
            let result: Result<MiddlewareResponse, any Error>
            do {
                result = .success(try await next(request, body, context))
            } catch {
                result = .failure(error)
            }
            guard replayable else { return try result.get() }
            let outcome: RetryPolicy.Outcome
            switch result {
            case .success(let delivered): outcome = .response(delivered.response)
            case .failure(let error): outcome = .failure(CourierError(error).kind)
            }
            let decision = policy.decision(after: outcome, of: request, attempt: context.attempt, random: random())
            guard case .retry(let delay) = decision, !Task.isCancelled, spendBudget() else {
                if case .retry = decision, Task.isCancelled { throw CourierError(.cancelled) }
                earnBudget(for: outcome)
                return try result.get()
            }
            try await clock.sleep(delay)
            // Attempts the transport made by itself count too.
            context.attempt = ((try? result.get())?.attempts ?? context.attempt) + 1
        }
    }

    private func spendBudget() -> Bool {
        budget.withLock { budget in
            guard budget != nil else { return true }
            return budget!.recordFailure()
        }
    }

    private func earnBudget(for outcome: RetryPolicy.Outcome) {
        guard case .response(let response) = outcome, response.status.kind != .serverError else { return }
        budget.withLock { $0?.recordSuccess() }
    }
}
