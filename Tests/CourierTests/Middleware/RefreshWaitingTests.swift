@testable import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

@Suite("Waiting for a refresh: cancellable, bounded by the call's timeout, one refresh after a failure")
struct RefreshWaitingTests {
    private static let stale = AuthTokens(accessToken: "stale", refreshToken: "r1")

    /// A session whose refresh lasts until `gate` opens: the test opens it, or, unless
    /// `opensByItself` is false, 30 s of real time do. A test whose outcome depends on the refresh
    /// not ending first must not let real time open it: a stalled machine can pass 30 s.
    private func slowSession(_ gate: StubGate, opensByItself: Bool = true) -> AuthenticationSession {
        if opensByItself {
            Task {
                try? await Task.sleep(for: .seconds(30))
                gate.open()
            }
        }
        return AuthenticationSession(store: InMemoryTokenStore(Self.stale)) { _ in
            try await gate.wait()
            return AuthTokens(accessToken: "fresh", refreshToken: "r2")
        }
    }

    private func makeClient(
        _ session: AuthenticationSession,
        _ transport: StubTransport,
        timeout: Duration = .seconds(60),
        clock: any Clock<Duration> = ContinuousClock()
    ) -> Client {
        Client(baseURL: "https://api.example.com", transport: transport) {
            $0.middleware = [AuthenticationMiddleware(session)]
            $0.timeout = timeout
            $0.clock = clock
        }
    }

    @Test("a call waiting for a slow refresh ends as cancelled at once when its task is cancelled")
    func cancelledWhileWaiting() async {
        let gate = StubGate()
        defer { gate.open() }
        let session = slowSession(gate)
        let client = makeClient(session, StubTransport.accepting(bearer: "fresh"))
        let call = Task { await capture { try await client.send(Request<Void>(.get, "items")) } }
        #expect(await eventually { session.refreshCount == 1 })
        call.cancel()
        let result = await call.value
        #expect(result.error?.kind == .cancelled)
        #expect(!gate.isOpen, "the call ended without waiting for the refresh")
    }

    @Test("a call waiting for a slow refresh fails as timed out after its own timeout, not later with success")
    func timedOutWhileWaiting() async throws {
        let gate = StubGate()
        defer { gate.open() }
        let session = slowSession(gate, opensByItself: false)
        // Time passes only when the test moves it, once the first attempt has its 401 and the call
        // waits for the refresh: the timeout that fires is the wait's, however slow the machine.
        let clock = ManualClock()
        let client = makeClient(session, StubTransport.accepting(bearer: "fresh"), timeout: .seconds(2), clock: clock)
        let done = LockedBox(false)
        let call = Task {
            defer { done.mutate { $0 = true } }
            return await capture { try await client.send(Request<Void>(.get, "items")) }
        }
        #expect(await eventually { session.refreshCount == 1 })
        #expect(await clock.run(until: { done.value }))
        let result = await call.value
        let error = result.error
        #expect(error?.kind == .timedOut)
        #expect(error?.message?.hasPrefix("No new token within") == true, "\(String(describing: error))")
    }

    @Test("the refresh goes on after one waiter is cancelled and another times out; the others get the new token")
    func refreshOutlivesWaiters() async throws {
        let gate = StubGate()
        defer { gate.open() }
        let session = slowSession(gate)
        let transport = StubTransport.accepting(bearer: "fresh")
        let patient = makeClient(session, transport)
        let cancelled = Task { await capture { try await patient.send(Request<Void>(.get, "cancelled")) } }
        let timedOut = Task { await capture { try await makeClient(session, transport, timeout: .seconds(1)).send(Request<Void>(.get, "hurried")) } }
        let others = Task {
            await withTaskGroup(of: Result<Void, CourierError>.self) { group in
                for index in 0..<10 { group.addTask { await capture { try await patient.send(Request<Void>(.get, "items/\(index)")) } } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        cancelled.cancel()
        #expect((await cancelled.value.error)?.kind == .cancelled)
        #expect((await timedOut.value.error)?.kind == .timedOut)
        gate.open()
        let results = await others.value
        #expect(results.count == 10)
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        #expect(session.refreshCount == 1)
        #expect(session.tokens?.accessToken == "fresh")
    }

    @Test("a task cancelled before it starts waiting fails as cancelled without waiting")
    func cancelledBeforeWaiting() async throws {
        let gate = StubGate()
        defer { gate.open() }
        let session = slowSession(gate)
        let used = session.coordinator.stamp
        let first = Task { try await session.renewed(after: used, timeout: .seconds(60)) }
        await eventually { session.refreshCount == 1 }
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await session.renewed(after: used, timeout: .seconds(60))
        }
        let error = await #expect(throws: CourierError.self) { try await early.value }
        #expect(error?.kind == .cancelled)
        #expect(!gate.isOpen, "the call ended without waiting for the refresh")
        gate.open()
        #expect(try await first.value?.token == "fresh")
    }

    @Test("a zero timeout fails at once while a refresh is under way")
    func zeroTimeout() async throws {
        let gate = StubGate()
        defer { gate.open() }
        let session = slowSession(gate)
        let used = session.coordinator.stamp
        let error = await #expect(throws: CourierError.self) { try await session.renewed(after: used, timeout: .zero) }
        #expect(error?.kind == .timedOut)
        #expect(session.refreshCount == 1, "the refresh started anyway and goes on")
    }

    @Test("a request whose token is known to be expired waits for the renewal only as long as its timeout")
    func expiredTokenWait() async throws {
        let gate = StubGate()
        defer { gate.open() }
        let session = AuthenticationSession(store: InMemoryTokenStore(AuthTokens(accessToken: "old", refreshToken: "r", expiresAt: .distantPast))) { _ in
            try await gate.wait()
            return AuthTokens(accessToken: "fresh")
        }
        let error = await #expect(throws: CourierError.self) { try await session.credentials(timeout: .milliseconds(100)) }
        #expect(error?.kind == .timedOut)
        gate.open()
        await eventually { session.tokens?.accessToken == "fresh" }
        #expect(try await session.credentials(timeout: .seconds(1))?.token == "fresh")
    }

    @Test("a transient refresh failure with 50 waiting requests causes one refresh; requests sent afterwards may try again")
    func transientFailureRefreshesOnce() async throws {
        let refreshes = LockedBox(0)
        let session = AuthenticationSession(store: InMemoryTokenStore(Self.stale)) { _ in
            refreshes.mutate { $0 += 1 }
            try await Task.sleep(for: .milliseconds(50))
            throw CourierError(.serverError, message: "Identity service unavailable")
        }
        // The first 401 comes once all 50 requests were sent; the odd ones come back as soon as
        // the refresh has started (most wait for it), the even ones only after it failed.
        let (first, odd, even) = (StubGate(), StubGate(), StubGate())
        let transport = StubTransport()
        transport.answer(.get("items/{index}")) { request in
            let index = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return .status(.unauthorized).held(until: index == 0 ? first : index.isMultiple(of: 2) ? even : odd)
        }
        transport.answer(.get("later"), with: .status(.unauthorized))
        let client = makeClient(session, transport)
        let calls = Task {
            await withTaskGroup(of: Result<Void, CourierError>.self) { group in
                for index in 0..<50 { group.addTask { await capture { try await client.send(Request<Void>(.get, "items/\(index)")) } } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(await eventually { first.waitingCount + odd.waitingCount + even.waitingCount == 50 })
        first.open()
        #expect(await eventually { refreshes.value == 1 })
        odd.open()
        #expect(await eventually { session.coordinator.stamp.failedRefreshes == 1 })
        even.open()
        let results = await calls.value
        #expect(refreshes.value == 1)
        #expect(results.allSatisfy { $0.error?.kind == .unauthorized }, "each gets its 401")
        #expect(transport.requests.count == 50, "nothing replayed")
        _ = await capture { try await client.send(Request<Void>(.get, "later")) }
        #expect(refreshes.value == 2, "a request sent after the failure tries again")
    }
}
