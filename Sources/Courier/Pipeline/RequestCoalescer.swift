import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Identical `GET` and `HEAD` requests of one client in flight at the same time, sent once
/// (``Configuration/coalescesRequests``).
///
/// The first caller starts a shared exchange in a task of its own, counted once in
/// ``Client/activity``; each identical caller after it joins until the response has arrived.
/// Every caller gets its own copy of the response (or the error) and its own facts, and waits
/// only as long as its own deadline allows. A caller that is cancelled or times out leaves
/// without disturbing the others; the exchange is cancelled when its last caller leaves, and by
/// ``Client/cancelAll()``. A caller that arrives once the response is in starts a new exchange: no
/// joining caller is ever left without an answer.
final class RequestCoalescer: Sendable {
    /// What every caller of a shared exchange gets.
    private struct Shared: Sendable {
        /// The response and its facts, without its body.
        var result: MiddlewareResponse
        var body: HTTPBody.ByteChunk?
        /// Sends beyond one per attempt (the transport's own).
        var extraAttempts: Int
    }

    /// One shared exchange and its callers. A reference, so that its state is changed in place.
    // @unchecked: every property but the constants is used under the coalescer's lock only.
    private final class Exchange: @unchecked Sendable {
        let key: CoalescingKey
        /// The exchange as one call of the client, counted in ``Client/activity`` until it ends
        /// or its last caller leaves.
        let call: InFlightCall
        /// Callers that joined and have not left.
        var callers: Set<UInt64>
        var continuations: [UInt64: CheckedContinuation<Shared, any Error>] = [:]
        /// Callers that left before they began to wait.
        var departed: Set<UInt64> = []
        var task: (any CancellableWork)?
        /// The answer, once it is in: for callers that joined and had not begun to wait.
        var outcome: Result<Shared, any Error>?

        init(key: CoalescingKey, call: InFlightCall, caller: UInt64) {
            self.key = key
            self.call = call
            self.callers = [caller]
        }
    }

    private struct State {
        var nextID: UInt64 = 0
        var exchanges: [CoalescingKey: Exchange] = [:]
    }

    private let state = LockedState(State())

    /// Whether a request is sent once for all identical callers: `GET` or `HEAD`, no body, and a
    /// response wanted whole in memory.
    static func coalesces(_ request: HTTPRequest, body: HTTPBody?, delivery: ResponseBodyDelivery) -> Bool {
        (request.method == .get || request.method == .head) && body == nil && delivery.collectsAll
    }

    /// The response to `request`, from an identical exchange in flight or from a new one that
    /// runs `exchange`.
    /// - Parameters:
    ///   - request: The request as it is sent.
    ///   - context: The caller's context: its origin, its attempt, its timeout and clock.
    ///   - call: The caller's call.
    ///   - limit: The most bytes of the body.
    ///   - exchange: One attempt at the request, following redirects.
    /// - Returns: The caller's own copy of the response.
    /// - Throws: The exchange's error; ``CourierError/Kind/timedOut`` when the caller's own
    ///   deadline passed first; `CancellationError` when the caller was cancelled.
    nonisolated(nonsending) func response(
        for request: HTTPRequest,
        context: MiddlewareContext,
        call: InFlightCall,
        limit: Int,
        exchange: @escaping @Sendable () async throws -> MiddlewareResponse
    ) async throws -> MiddlewareResponse {
        let clock = context.elapsedClock
        let registry = call.registry
        guard let registration = registry.insert(for: call, deadline: clock.now() + context.timeout, clock: clock) else {
            throw CancellationError()
        }
        let (caller, shared, leads) = join(CoalescingKey(request, origin: context.origin), registry: registry)
        if leads { start(shared, attempt: context.attempt, limit: limit, exchange: exchange) }
        registry.attach(registration, Departure(coalescer: self, caller: caller, exchange: shared))
        registry.setCounted(call, false)
        defer { registry.setCounted(call, true) }
        do {
            let answer = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    wait(caller, in: shared, continuation)
                }
            } onCancel: {
                leave(caller, shared)
            }
            registry.remove(registration)
            var result = answer.result
            result.body = answer.body.map { HTTPBody($0) }
            result.attempts = context.attempt + answer.extraAttempts
            return result
        } catch {
            if registry.remove(registration) && !Task.isCancelled { throw Attempt.timeoutError(after: context.timeout) }
            throw error
        }
    }

    /// Adds a caller to the exchange for `key`, or starts one.
    /// - Returns: The caller's id, its exchange, and whether the caller starts it.
    private func join(_ key: CoalescingKey, registry: InFlightRequests) -> (caller: UInt64, exchange: Exchange, leads: Bool) {
        // Counted before the lock is taken; given back when the caller joins an exchange.
        let call = registry.begin()
        let joined = state.withLock { state -> (UInt64, Exchange, Bool) in
            state.nextID += 1
            let caller = state.nextID
            if let exchange = state.exchanges[key] {
                exchange.callers.insert(caller)
                return (caller, exchange, false)
            }
            let exchange = Exchange(key: key, call: call, caller: caller)
            state.exchanges[key] = exchange
            return (caller, exchange, true)
        }
        if !joined.2 { call.end() }
        return joined
    }

    /// Runs the shared exchange in a task of its own, then answers every caller.
    ///
    /// The task is not registered with the client: every caller is, so ``Client/cancelAll()`` and
    /// the callers' deadlines reach it through its callers, the last of whom cancels it. It is an
    /// ordinary task, not one started on the calling thread: with 64 identical-shaped calls in
    /// flight over AsyncHTTPClient, starting each exchange on its caller's thread cost 15–25 % of
    /// the throughput (`courier-bench --external-server`), one request's setup no longer running
    /// beside the next caller's; and after a storm of random cancellations (`RandomCancellationTests`)
    /// AsyncHTTPClient's pool still held up to 512 of the cancelled requests, which it then ran one
    /// by one ahead of the next call.
    private func start(
        _ shared: Exchange,
        attempt: Int,
        limit: Int,
        exchange: @escaping @Sendable () async throws -> MiddlewareResponse
    ) {
        let task = Task {
            let outcome: Result<Shared, any Error>
            do {
                var result = try await exchange()
                let body = result.body == nil ? nil : try await ResponseBody.bytes(of: result.body, upTo: limit)
                let extraAttempts = result.attempts - attempt
                result.body = nil
                outcome = .success(Shared(result: result, body: body, extraAttempts: extraAttempts))
            } catch {
                outcome = .failure(error)
            }
            self.finish(shared, with: outcome)
        }
        let abandoned = state.withLock { _ -> Bool in
            guard !shared.callers.isEmpty, shared.outcome == nil else { return true }
            shared.task = task
            return false
        }
        if abandoned { task.cancel() }
    }

    /// Answers every caller of `shared`.
    private func finish(_ shared: Exchange, with outcome: Result<Shared, any Error>) {
        let continuations = state.withLock { state -> [CheckedContinuation<Shared, any Error>]? in
            guard shared.outcome == nil, !shared.callers.isEmpty else { return nil }
            shared.outcome = outcome
            if state.exchanges[shared.key] === shared { state.exchanges[shared.key] = nil }
            defer { shared.continuations = [:] }
            return Array(shared.continuations.values)
        }
        guard let continuations else { return }
        shared.call.end()
        for continuation in continuations { continuation.resume(with: outcome) }
    }

    /// Waits for the caller's answer.
    private func wait(_ caller: UInt64, in shared: Exchange, _ continuation: CheckedContinuation<Shared, any Error>) {
        let ready = state.withLock { _ -> Result<Shared, any Error>? in
            if shared.departed.remove(caller) != nil { return .failure(CancellationError()) }
            if let outcome = shared.outcome { return outcome }
            shared.continuations[caller] = continuation
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Takes the caller out of its exchange (cancelled, or past its deadline); cancels the
    /// exchange when it was the last.
    private func leave(_ caller: UInt64, _ shared: Exchange) {
        let (continuation, abandoned) = state.withLock { state -> (CheckedContinuation<Shared, any Error>?, Bool) in
            guard shared.outcome == nil, shared.callers.remove(caller) != nil else { return (nil, false) }
            let continuation = shared.continuations.removeValue(forKey: caller)
            if continuation == nil { shared.departed.insert(caller) }
            guard shared.callers.isEmpty else { return (continuation, false) }
            if state.exchanges[shared.key] === shared { state.exchanges[shared.key] = nil }
            return (continuation, true)
        }
        continuation?.resume(throwing: CancellationError())
        if abandoned {
            shared.call.end()
            state.withLock { _ in shared.task }?.cancel()
        }
    }

    /// How a caller's registration with its client leaves the exchange when its deadline passes
    /// or ``Client/cancelAll()`` cancels it.
    private struct Departure: CancellableWork {
        let coalescer: RequestCoalescer
        let caller: UInt64
        let exchange: Exchange

        func cancel() {
            coalescer.leave(caller, exchange)
        }
    }
}
