import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Identical `GET` and `HEAD` requests of one client in flight at the same time, sent once
/// (``Configuration/coalescesRequests``).
///
/// The first caller runs the exchange itself, in its own task and with its own deadline, exactly
/// as a call that is not coalesced. A first caller that finds no other exchange of the client in
/// flight is left unfiled, without a key: a caller that arrives while it is in flight files it
/// before looking up its own. So a call with no company pays two short locks and no key, and
/// keeps its response as it came. Each identical
/// caller that arrives while it is in flight joins and waits, counted out of ``Client/activity``
/// meanwhile, and gets its own copy of the response (or the error) and its own facts. A joiner
/// that is cancelled or times out leaves without disturbing the others. When the first caller
/// leaves (cancelled, past its deadline, or by ``Client/cancelAll()``), its exchange ends with it
/// and a remaining joiner becomes the first caller and sends the request again: a first caller
/// that leaves costs one more request, which is safe because only `GET` and `HEAD` are coalesced.
/// A caller that arrives once the response is in starts a new exchange.
final class RequestCoalescer: Sendable {
    /// What every caller of an exchange gets.
    private struct Shared: Sendable {
        /// The response and its facts, without its body.
        var result: MiddlewareResponse
        var body: HTTPBody.ByteChunk?
        /// Sends beyond one per attempt (the transport's own).
        var extraAttempts: Int

        /// A caller's own copy, counting its own attempts.
        func response(attempt: Int) -> MiddlewareResponse {
            var response = result
            response.body = body.map { HTTPBody($0) }
            response.attempts = attempt + extraAttempts
            return response
        }
    }

    /// What tells the waiting callers that the first caller left: one of them sends again.
    private struct HandOver: Error {}

    /// One exchange in flight and the callers waiting for it. A reference, so that its state is
    /// changed in place.
    // @unchecked: every property but `request` and `origin` is used under the coalescer's lock only.
    private final class Exchange: @unchecked Sendable {
        /// What the key is made of, for a caller that files the exchange later.
        let request: HTTPRequest
        let origin: URL
        /// Where the exchange is filed; `nil` while it is the client's only one, unfiled.
        var key: CoalescingKey?
        /// Callers that joined and have not left.
        var joiners: Set<UInt64> = []
        var continuations: [UInt64: CheckedContinuation<Shared, any Error>] = [:]
        /// Joiners that left before they began to wait.
        var departed: Set<UInt64> = []
        /// The answer, once it is in, or ``HandOver``: for joiners that had not begun to wait.
        var outcome: Result<Shared, any Error>?

        init(_ request: HTTPRequest, origin: URL, key: CoalescingKey?) {
            self.request = request
            self.origin = origin
            self.key = key
        }
    }

    private struct State {
        var nextID: UInt64 = 0
        var exchanges: [CoalescingKey: Exchange] = [:]
        /// The exchange that began when no other was in flight, not yet filed under its key. There
        /// is at most one: the next caller files it.
        var unfiled: Exchange?

        /// Forgets `exchange`, filed or not, if it is still the one in its place.
        mutating func remove(_ exchange: Exchange) {
            if let key = exchange.key {
                if exchanges[key] === exchange { exchanges[key] = nil }
            } else if unfiled === exchange {
                unfiled = nil
            }
        }
    }

    /// A caller's place: the first, who sends, or a joiner, who waits.
    private enum Role {
        case first(Exchange)
        case joiner(UInt64, Exchange)
    }

    private let state = LockedState(State())

    /// How many callers wait for an exchange in flight, for tests.
    var waitingCount: Int {
        state.withLock { state in
            state.exchanges.values.reduce(state.unfiled?.continuations.count ?? 0) { $0 + $1.continuations.count }
        }
    }

    /// Whether a request is sent once for all identical callers: `GET` or `HEAD`, no body, and a
    /// response wanted whole in memory.
    static func coalesces(_ request: HTTPRequest, body: HTTPBody?, delivery: ResponseBodyDelivery) -> Bool {
        (request.method == .get || request.method == .head) && body == nil && delivery.collectsAll
    }

    /// The response to `request`: from the identical exchange in flight, or from `exchange` run
    /// by this caller when there is none (or when the first caller of the one in flight leaves).
    /// - Parameters:
    ///   - request: The request as it is sent.
    ///   - context: The caller's context: its origin, its attempt, its timeout and clock.
    ///   - call: The caller's call.
    ///   - limit: The most bytes of the body.
    ///   - exchange: One attempt at the request, following redirects, ended by the interruption.
    /// - Returns: The caller's own copy of the response.
    /// - Throws: The exchange's error; ``CourierError/Kind/timedOut`` when the caller's own
    ///   deadline passed first; `CancellationError` when the caller was cancelled.
    nonisolated(nonsending) func response(
        for request: HTTPRequest,
        context: MiddlewareContext,
        call: InFlightCall,
        limit: Int,
        exchange: nonisolated(nonsending) (ExchangeInterruption) async throws -> MiddlewareResponse
    ) async throws -> MiddlewareResponse {
        let clock = context.elapsedClock
        // One deadline for the caller, whether it waits, sends, or first waits and then sends.
        let deadline = clock.now() + context.timeout
        while true {
            switch role(for: request, origin: context.origin) {
            case .first(let shared):
                return try await send(shared, context: context, call: call, deadline: deadline, limit: limit, exchange: exchange)
            case .joiner(let caller, let shared):
                if let answer = try await wait(caller, for: shared, context: context, call: call, deadline: deadline) {
                    return answer
                }
            }
        }
    }

    /// The caller's place in the exchange for `request`: the first when there is none in flight.
    /// Keys are made under the lock, and only when another exchange is in flight: each exchange's
    /// once, by its first caller or by the caller that files it.
    private func role(for request: HTTPRequest, origin: URL) -> Role {
        state.withLock { state in
            if let alone = state.unfiled {
                let key = CoalescingKey(alone.request, origin: alone.origin)
                alone.key = key
                state.exchanges[key] = alone
                state.unfiled = nil
            } else if state.exchanges.isEmpty {
                let exchange = Exchange(request, origin: origin, key: nil)
                state.unfiled = exchange
                return .first(exchange)
            }
            let key = CoalescingKey(request, origin: origin)
            if let exchange = state.exchanges[key] {
                state.nextID += 1
                exchange.joiners.insert(state.nextID)
                return .joiner(state.nextID, exchange)
            }
            let exchange = Exchange(request, origin: origin, key: key)
            state.exchanges[key] = exchange
            return .first(exchange)
        }
    }

    /// The first caller's part: runs the exchange in the calling task, as an attempt that is not
    /// coalesced runs, then answers the joiners, or hands over to them when it leaves.
    nonisolated(nonsending) private func send(
        _ shared: Exchange,
        context: MiddlewareContext,
        call: InFlightCall,
        deadline: Duration,
        limit: Int,
        exchange: nonisolated(nonsending) (ExchangeInterruption) async throws -> MiddlewareResponse
    ) async throws -> MiddlewareResponse {
        var interrupted = false
        do {
            let outcome = try await call.interruptible(
                deadline: deadline,
                clock: context.elapsedClock,
                timeoutError: Attempt.timeoutError(after: context.timeout)
            ) { interruption -> Outcome in
                do {
                    var result = try await exchange(interruption)
                    // Nobody joined: nobody can any more, and the response needs no copy.
                    if closeIfAlone(shared) { return .alone(result) }
                    let body = result.body == nil ? nil : try await ResponseBody.bytes(of: result.body, upTo: limit)
                    let extraAttempts = result.attempts - context.attempt
                    result.body = nil
                    return .shared(Shared(result: result, body: body, extraAttempts: extraAttempts))
                } catch {
                    interrupted = interruption.isInterrupted
                    throw error
                }
            }
            switch outcome {
            case .alone(let response):
                return response
            case .shared(let answer):
                finish(shared, with: .success(answer))
                return answer.response(attempt: context.attempt)
            }
        } catch {
            // The caller left (its deadline, its cancellation, `cancelAll()`): the joiners are not
            // bound by that, and one of them sends again. Any other failure is the answer.
            let left = interrupted || Task.isCancelled || error is CancellationError
            finish(shared, with: left ? .failure(HandOver()) : .failure(error))
            throw error
        }
    }

    /// What the first caller's exchange ended with: its own response when nobody joined, or the
    /// answer to share.
    private enum Outcome: Sendable {
        case alone(MiddlewareResponse)
        case shared(Shared)
    }

    /// Ends `shared` when no caller has joined it: later callers start a new exchange.
    /// - Returns: Whether it ended; `false` when callers wait for its answer.
    private func closeIfAlone(_ shared: Exchange) -> Bool {
        state.withLock { state in
            guard shared.joiners.isEmpty else { return false }
            state.remove(shared)
            return true
        }
    }

    /// A joiner's part: waits for the first caller's answer within the caller's own deadline.
    /// - Returns: The answer, or `nil` when the first caller left and this caller should try again.
    nonisolated(nonsending) private func wait(
        _ caller: UInt64,
        for shared: Exchange,
        context: MiddlewareContext,
        call: InFlightCall,
        deadline: Duration
    ) async throws -> MiddlewareResponse? {
        let registry = call.registry
        let departure = Departure(coalescer: self, caller: caller, exchange: shared)
        guard let registration = registry.insert(for: call, deadline: deadline, clock: context.elapsedClock, task: departure) else {
            leave(caller, shared)
            throw CancellationError()
        }
        // The exchange is counted once, with its first caller.
        registry.setCounted(call, false)
        defer { registry.setCounted(call, true) }
        do {
            let answer = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    attach(caller, to: shared, continuation)
                }
            } onCancel: {
                leave(caller, shared)
            }
            registry.remove(registration)
            return answer.response(attempt: context.attempt)
        } catch is HandOver {
            registry.remove(registration)
            return nil
        } catch {
            if registry.remove(registration) && !Task.isCancelled { throw Attempt.timeoutError(after: context.timeout) }
            throw error
        }
    }

    /// Ends `shared`: later callers start a new exchange, and every joiner gets `outcome`.
    private func finish(_ shared: Exchange, with outcome: Result<Shared, any Error>) {
        let continuations = state.withLock { state in
            state.remove(shared)
            shared.outcome = outcome
            defer { shared.continuations = [:] }
            return Array(shared.continuations.values)
        }
        for continuation in continuations { continuation.resume(with: outcome) }
    }

    /// Waits for the answer, or takes it when it is in already.
    private func attach(_ caller: UInt64, to shared: Exchange, _ continuation: CheckedContinuation<Shared, any Error>) {
        let ready = state.withLock { _ -> Result<Shared, any Error>? in
            if shared.departed.remove(caller) != nil { return .failure(CancellationError()) }
            if let outcome = shared.outcome { return outcome }
            shared.continuations[caller] = continuation
            return nil
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Takes a joiner out of its exchange (cancelled, or past its deadline).
    private func leave(_ caller: UInt64, _ shared: Exchange) {
        let continuation = state.withLock { _ -> CheckedContinuation<Shared, any Error>? in
            guard shared.outcome == nil, shared.joiners.remove(caller) != nil else { return nil }
            let continuation = shared.continuations.removeValue(forKey: caller)
            if continuation == nil { shared.departed.insert(caller) }
            return continuation
        }
        continuation?.resume(throwing: CancellationError())
    }

    /// How a joiner's registration with its client leaves the exchange when its deadline passes
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
