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
    /// The clock given at creation; otherwise the client's.
    private let clock: ElapsedClock?
    private let random: @Sendable () -> Double
    private let budget: LockedState<RetryBudget?>

    /// Creates the middleware; its waits are measured with the client's ``Configuration/clock``.
    /// - Parameter policy: When to retry; ``RetryPolicy/exponential(maxAttempts:backoff:)`` by default.
    public init(_ policy: RetryPolicy = .exponential()) {
        self.init(policy, clock: nil, random: { Double.random(in: 0..<1) })
    }

    /// Creates the middleware with a clock of its own.
    /// - Parameters:
    ///   - policy: When to retry.
    ///   - clock: What waits are measured with, instead of the client's clock.
    public init(_ policy: RetryPolicy, clock: some Clock<Duration>) {
        self.init(policy, clock: ElapsedClock(clock), random: { Double.random(in: 0..<1) })
    }

    init(_ policy: RetryPolicy, clock: some Clock<Duration>, random: @escaping @Sendable () -> Double) {
        self.init(policy, clock: ElapsedClock(clock), random: random)
    }

    init(_ policy: RetryPolicy, clock: ElapsedClock?, random: @escaping @Sendable () -> Double) {
        self.policy = policy
        self.clock = clock
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
            let decision = policy.decision(after: outcome, of: request, attempt: context.attempt, random: random(), now: context.currentDate())
            guard case .retry(let delay) = decision, !Task.isCancelled, spendBudget() else {
                if case .retry = decision, Task.isCancelled { throw CourierError(.cancelled) }
                earnBudget(for: outcome)
                return try result.get()
            }
            try await (clock ?? context.elapsedClock).sleep(delay)
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
