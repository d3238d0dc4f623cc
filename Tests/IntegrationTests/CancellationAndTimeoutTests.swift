import Courier
import ExampleAPIs
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

@Suite("Cancellation, timeouts and offline failures against real sockets", .timingSensitive)
struct CancellationAndTimeoutTests {
    @Test("a 30-second request cancelled after 100 ms ends at once as cancelled", arguments: TransportKind.allCases)
    func taskCancellation(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo()
            let (result, elapsed) = await measure {
                let task = Task { try await client.send(Request<Echo>(.get, "slow").header(.fault, "delay=30000")) }
                try? await Task.sleep(for: .milliseconds(100))
                task.cancel()
                return await task.result
            }
            #expect(elapsed < hangBound)
            guard case .failure(let error as CourierError) = result else {
                Issue.record("expected a cancellation error, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)
            #expect(client.inFlightCount == 0)
        }
    }

    @Test("a cancelled completion-handler request never reports a success", arguments: TransportKind.allCases)
    func handleCancellation(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo()
            let (result, elapsed) = await measure {
                await withCheckedContinuation { (continuation: CheckedContinuation<Result<Echo, CourierError>, Never>) in
                    let handle = client.send(Request<Echo>(.get, "slow").header(.fault, "delay=30000")) {
                        continuation.resume(returning: $0)
                    }
                    Task {
                        try? await Task.sleep(for: .milliseconds(100))
                        handle.cancel()
                    }
                }
            }
            #expect(elapsed < hangBound)
            guard case .failure(let error) = result else {
                Issue.record("a cancelled request delivered a success")
                return
            }
            #expect(error.kind == .cancelled)
        }
    }

    @Test("cancelAll() cancels every request in flight and leaves the client usable", arguments: TransportKind.allCases)
    func cancelAll(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo()
            let (results, elapsed) = await measure {
                await withTaskGroup(of: Result<Echo, CourierError>.self) { group in
                    for index in 0..<5 {
                        group.addTask {
                            do {
                                return .success(try await client.send(Request<Echo>(.get, "slow/\(index)").header(.fault, "delay=30000")))
                            } catch {
                                return .failure(CourierError(error))
                            }
                        }
                    }
                    while client.inFlightCount < 5 { try? await Task.sleep(for: .milliseconds(10)) }
                    client.cancelAll()
                    var results: [Result<Echo, CourierError>] = []
                    for await result in group { results.append(result) }
                    return results
                }
            }
            #expect(elapsed < hangBound)
            #expect(results.count == 5)
            for result in results {
                if case .failure(let error) = result { #expect(error.kind == .cancelled) } else { Issue.record("a cancelled request succeeded") }
            }
            #expect(client.inFlightCount == 0)
            let value1 = try await client.send(Request<Echo>(.get, "after")).path
            #expect(value1 == "/echo/after")
        }
    }

    @Test("an endpoint's timeout wins over the client's and ends a slow request", arguments: TransportKind.allCases)
    func endpointTimeout(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.timeout = .seconds(30) }
            let (result, elapsed) = await measure {
                await capture {
                    try await client.send(Request<Echo>(.get, "slow").header(.fault, "delay=30000").timeout(.milliseconds(300)))
                }
            }
            // 300 ms plus room for a busy machine; the server would wait 30 s.
            #expect(elapsed < hangBound)
            #expect(result.error?.kind == .timedOut)
            let value2 = try await client.send(Request<Echo>(.get, "after")).method
            #expect(value2 == "GET")
        }
    }

    @Test("the client's timeout applies to every endpoint", arguments: TransportKind.allCases)
    func clientTimeout(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.timeout = .milliseconds(300) }
            let error = await #expect(throws: CourierError.self) {
                try await client.send(Request<Echo>(.get, "slow").header(.fault, "delay=3000"))
            }
            #expect(error?.kind == .timedOut)
            #expect(error?.localizedDescription == "The request timed out. Please try again.")
        }
    }

    /// Without middleware a call's only task is its attempt's, which carries the deadline; with
    /// middleware they run in a task of the call and each attempt in another. Both end the same way.
    @Test(
        "timeouts and cancelAll() end a call whether or not it passes through middleware",
        arguments: TransportKind.allCases, [false, true])
    func timeoutWithAndWithoutMiddleware(transport: TransportKind, throughMiddleware: Bool) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo {
                $0.timeout = .milliseconds(300)
                if throughMiddleware { $0.middleware = [PassingOn()] }
            }
            let (timedOut, elapsed) = await measure {
                await capture { try await client.send(Request<Echo>(.get, "slow").header(.fault, "delay=30000")) }
            }
            #expect(elapsed < hangBound)
            #expect(timedOut.error?.kind == .timedOut)

            let patient = backends.echo {
                $0.timeout = .seconds(60)
                if throughMiddleware { $0.middleware = [PassingOn()] }
            }
            try await expectCancelAllEnds(Request<Echo>(.get, "slow").header(.fault, "delay=30000"), on: patient)
            #expect(try await patient.send(Request<Echo>(.get, "after")).method == "GET")
        }
    }

    /// A request the client does not coalesce runs its attempt in the caller's task: the deadline
    /// and cancelAll() reach the exchange through the transport's interruption, not a task.
    enum UncoalescedRequest: String, CaseIterable, Sendable {
        case post, getWithCoalescingOff
    }

    @Test(
        "timeouts and cancelAll() end an attempt that runs in the caller's task, and a retry may follow",
        arguments: TransportKind.allCases, UncoalescedRequest.allCases)
    func interruptedAttempt(transport: TransportKind, request: UncoalescedRequest) async throws {
        try await withBackends(transport) { backends in
            func slow(_ delay: Int) -> Request<Echo> {
                let method: HTTPRequest.Method = request == .post ? .post : .get
                return Request<Echo>(method, "slow", body: request == .post ? .data(Data("x".utf8)) : nil).header(.fault, "delay=\(delay)")
            }
            let client = backends.echo {
                $0.timeout = .milliseconds(300)
                $0.coalescesRequests = request == .post
            }
            let (timedOut, elapsed) = await measure { await capture { try await client.send(slow(30_000)) } }
            #expect(elapsed < hangBound)
            #expect(timedOut.error?.kind == .timedOut)
            #expect(!Task.isCancelled, "the deadline never cancels the caller's task")
            // The same task goes on to another request, which completes.
            #expect(try await client.send(slow(0).timeout(.seconds(30))).method == (request == .post ? "POST" : "GET"))
            // Within one call: the timed-out attempt ends, and the middleware's second attempt
            // (without the server's delay) succeeds.
            let retrying = backends.echo {
                $0.timeout = .milliseconds(300)
                $0.coalescesRequests = request == .post
                $0.middleware = [RetryingWithoutDelayAfterTimeout()]
            }
            let retried = try await retrying.response(for: slow(30_000))
            #expect(retried.attempts == 2)

            let patient = backends.echo {
                $0.timeout = .seconds(60)
                $0.coalescesRequests = request == .post
            }
            try await expectCancelAllEnds(slow(30_000), on: patient)
        }
    }

    @Test(
        "timeouts and cancelAll() end a call whose body is still arriving, coalesced or not",
        arguments: TransportKind.allCases, [false, true])
    func interruptedBody(transport: TransportKind, coalescing: Bool) async throws {
        try await withBackends(transport) { backends in
            // One byte every 100 ms: the head arrives at once, the body would take half a minute.
            let trickling = Request<Echo>(.get, "slow").header(.fault, "trickle=100")
            let client = backends.echo {
                $0.timeout = .milliseconds(500)
                $0.coalescesRequests = coalescing
            }
            let (timedOut, elapsed) = await measure { await capture { try await client.send(trickling) } }
            #expect(elapsed < hangBound)
            #expect(timedOut.error?.kind == .timedOut, "\(String(describing: timedOut.error))")

            let patient = backends.echo {
                $0.timeout = .seconds(60)
                $0.coalescesRequests = coalescing
            }
            try await expectCancelAllEnds(trickling, on: patient, after: .milliseconds(300))
        }
    }

    /// Sends `request` on `client`, calls `cancelAll()` once it is in flight (and `wait` after
    /// that), and expects the call to end as cancelled with nothing left in flight.
    private func expectCancelAllEnds(_ request: Request<Echo>, on client: Client, after wait: Duration = .zero) async throws {
        let call = Task { try await client.send(request) }
        while client.inFlightCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: wait)
        client.cancelAll()
        guard case .failure(let error as CourierError) = await call.result else {
            Issue.record("cancelAll() did not end the call")
            return
        }
        #expect(error.kind == .cancelled)
        #expect(client.inFlightCount == 0)
    }

    @Test("cancelAll() ends a call while its middleware waits, before any attempt", arguments: TransportKind.allCases)
    func cancelAllReachesMiddlewareWaits(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.middleware = [WaitingFirst(wait: .seconds(30))] }
            let call = Task { try await client.send(Request<Echo>(.get, "after")) }
            while client.inFlightCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
            let (result, elapsed) = await measure {
                client.cancelAll()
                return await call.result
            }
            #expect(elapsed < hangBound)
            #expect((result.error as? CourierError)?.kind == .cancelled)
            #expect(client.inFlightCount == 0)
        }
    }

    @Test("after cancelAll() a middleware that tries again starts no new attempt", arguments: TransportKind.allCases)
    func cancelledCallStartsNoAttempt(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.middleware = [TryingAgainOnAnyError()] }
            let call = Task { try await client.send(Request<Echo>(.get, "slow").header(.fault, "delay=30000")) }
            while client.inFlightCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(100))
            let (result, elapsed) = await measure {
                client.cancelAll()
                return await call.result
            }
            // A second attempt would wait for the server's 30 s.
            #expect(elapsed < hangBound)
            #expect((result.error as? CourierError)?.kind == .cancelled)
        }
    }

    @Test("a refused port fails fast as no connection", arguments: TransportKind.allCases)
    func refusedPort(transport: TransportKind) async throws {
        let port = try await ReferenceServer.unusedPort()
        let client = Client(baseURL: "http://127.0.0.1:\(port)", transport: transport.make())
        let (result, elapsed) = await measure {
            await capture { try await client.send(Request<Data>(.get, "anything")) }
        }
        #expect(elapsed < hangBound)
        #expect(result.error?.kind == .notConnected)
        #expect(result.error?.localizedDescription == "No Internet connection.")
    }
}

/// Waits before passing the request on, as a throttle waiting for a free slot does.
private struct WaitingFirst: Middleware {
    let wait: Duration

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        try await Task.sleep(for: wait)
        return try await next(request, body, context)
    }
}

/// Tries once more after any failure, cancellation included: the careless retry a call must
/// survive.
private struct TryingAgainOnAnyError: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        do {
            return try await next(request, body, context)
        } catch {
            var again = context
            again.attempt += 1
            return try await next(request, body, again)
        }
    }
}

/// After a timed-out attempt, tries once more without the fault header that delays the server.
private struct RetryingWithoutDelayAfterTimeout: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        do {
            return try await next(request, body, context)
        } catch let error as CourierError where error.kind == .timedOut {
            var again = context
            again.attempt += 1
            // Room for the second attempt on a busy machine: the first proved the deadline.
            again.timeout = .seconds(30)
            var request = request
            request.headerFields[.fault] = nil
            return try await next(request, body, again)
        }
    }
}
