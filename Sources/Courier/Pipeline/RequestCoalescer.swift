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

    private struct Exchange {
        let id: UInt64
        /// The exchange as one call of the client, counted in ``Client/activity`` until it ends
        /// or its last caller leaves.
        let call: InFlightCall
        /// Callers that joined and wait, or are about to.
        var callers: Set<UInt64>
        var continuations: [UInt64: CheckedContinuation<Shared, any Error>] = [:]
        var task: (any CancellableWork)?
    }

    private struct State {
        var nextID: UInt64 = 0
        var exchanges: [CoalescingKey: Exchange] = [:]
        /// Each caller's exchange.
        var joined: [UInt64: CoalescingKey] = [:]
        /// Outcomes for callers that had joined but not yet begun to wait when they arrived.
        var outcomes: [UInt64: Result<Shared, any Error>] = [:]
        /// Callers that left before they began to wait.
        var departed: Set<UInt64> = []
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
        let key = CoalescingKey(request, origin: context.origin)
        let clock = context.elapsedClock
        let registry = call.registry
        guard let registration = registry.insert(for: call, deadline: clock.now() + context.timeout, clock: clock) else {
            throw CancellationError()
        }
        let (caller, leads) = join(key, registry: registry)
        if let leads {
            start(leads, key: key, registry: registry, attempt: context.attempt, limit: limit, exchange: exchange)
        }
        registry.attach(registration, Departure(coalescer: self, caller: caller))
        registry.setCounted(call, false)
        defer { registry.setCounted(call, true) }
        do {
            let shared = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    wait(caller, continuation)
                }
            } onCancel: {
                leave(caller)
            }
            registry.remove(registration)
            var result = shared.result
            result.body = shared.body.map { HTTPBody($0) }
            result.attempts = context.attempt + shared.extraAttempts
            return result
        } catch {
            if registry.remove(registration) && !Task.isCancelled { throw Attempt.timeoutError(after: context.timeout) }
            throw error
        }
    }

    /// Adds a caller to the exchange for `key`, or starts one.
    /// - Returns: The caller's id, and the id of the exchange when the caller starts it.
    private func join(_ key: CoalescingKey, registry: InFlightRequests) -> (caller: UInt64, leads: UInt64?) {
        // Counted before the lock is taken; given back when the caller joins an exchange.
        let call = registry.begin()
        let joined = state.withLock { state -> (caller: UInt64, leads: UInt64?) in
            state.nextID += 1
            let caller = state.nextID
            state.joined[caller] = key
            if state.exchanges[key] != nil {
                state.exchanges[key]?.callers.insert(caller)
                return (caller, nil)
            }
            state.nextID += 1
            state.exchanges[key] = Exchange(id: state.nextID, call: call, callers: [caller])
            return (caller, state.nextID)
        }
        if joined.leads == nil { call.end() }
        return joined
    }

    /// Runs the shared exchange `id` as a call of its own, then answers every caller.
    private func start(
        _ id: UInt64,
        key: CoalescingKey,
        registry: InFlightRequests,
        attempt: Int,
        limit: Int,
        exchange: @escaping @Sendable () async throws -> MiddlewareResponse
    ) {
        let registration = state.withLock { $0.exchanges[key]?.id == id ? $0.exchanges[key]?.call : nil }
            .flatMap { registry.insert(for: $0, deadline: nil, clock: .continuous) }
        let task = Task {
            defer {
                if let registration { registry.remove(registration) }
            }
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
            self.finish(id, key: key, with: outcome)
        }
        if let registration { registry.attach(registration, task) }
        let abandoned = state.withLock { state -> Bool in
            guard state.exchanges[key]?.id == id else { return true }
            state.exchanges[key]?.task = task
            return false
        }
        if abandoned || registration == nil { task.cancel() }
    }

    /// Answers every caller of exchange `id`.
    private func finish(_ id: UInt64, key: CoalescingKey, with outcome: Result<Shared, any Error>) {
        let (continuations, call) = state.withLock { state -> ([CheckedContinuation<Shared, any Error>], InFlightCall?) in
            guard let exchange = state.exchanges[key], exchange.id == id else { return ([], nil) }
            state.exchanges[key] = nil
            for caller in exchange.callers where exchange.continuations[caller] == nil {
                state.outcomes[caller] = outcome
            }
            for caller in exchange.continuations.keys { state.joined[caller] = nil }
            return (Array(exchange.continuations.values), exchange.call)
        }
        call?.end()
        for continuation in continuations { continuation.resume(with: outcome) }
    }

    /// Waits for the caller's answer.
    private func wait(_ caller: UInt64, _ continuation: CheckedContinuation<Shared, any Error>) {
        let ready = state.withLock { state -> Result<Shared, any Error>? in
            if let outcome = state.outcomes.removeValue(forKey: caller) {
                state.joined[caller] = nil
                return outcome
            }
            if state.departed.remove(caller) != nil {
                state.joined[caller] = nil
                return .failure(CancellationError())
            }
            guard let key = state.joined[caller], state.exchanges[key] != nil else {
                state.joined[caller] = nil
                return .failure(CancellationError())
            }
            state.exchanges[key]?.continuations[caller] = continuation
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Takes the caller out of its exchange (cancelled, or past its deadline); cancels the
    /// exchange when it was the last.
    fileprivate func leave(_ caller: UInt64) {
        let (continuation, abandoned) = state.withLock { state -> (CheckedContinuation<Shared, any Error>?, Exchange?) in
            guard let key = state.joined[caller], var exchange = state.exchanges[key] else { return (nil, nil) }
            exchange.callers.remove(caller)
            let continuation = exchange.continuations.removeValue(forKey: caller)
            if continuation == nil {
                state.departed.insert(caller)
            } else {
                state.joined[caller] = nil
            }
            if exchange.callers.isEmpty {
                state.exchanges[key] = nil
                return (continuation, exchange)
            }
            state.exchanges[key] = exchange
            return (continuation, nil)
        }
        continuation?.resume(throwing: CancellationError())
        abandoned?.call.end()
        abandoned?.task?.cancel()
    }

    /// How a caller's registration with its client leaves the exchange when its deadline passes
    /// or ``Client/cancelAll()`` cancels it.
    private struct Departure: CancellableWork {
        let coalescer: RequestCoalescer
        let caller: UInt64

        func cancel() {
            coalescer.leave(caller)
        }
    }
}
