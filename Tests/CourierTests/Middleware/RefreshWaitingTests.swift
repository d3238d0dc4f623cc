@testable import Courier
import Foundation
import TestSupport
import Testing

/// Opens once; until then `wait()` suspends. Stands in for a slow identity service without sleeping.
final class RefreshGate: Sendable {
    private let state = LockedBox<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.mutate { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.mutate { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// A transport that answers each request with what `reply` decides from its arrival index and
/// its `Authorization` field, and counts requests.
final class DecidingTransport: ClientTransport, Sendable {
    let sent = LockedBox<[String?]>([])
    private let reply: @Sendable (_ index: Int, _ authorization: String?) async -> HTTPResponse.Status

    init(reply: @escaping @Sendable (_ index: Int, _ authorization: String?) async -> HTTPResponse.Status) {
        self.reply = reply
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let authorization = request.headerFields[.authorization]
        let index = sent.mutate { sent in
            sent.append(authorization)
            return sent.count - 1
        }
        return (HTTPResponse(status: await reply(index, authorization)), nil)
    }
}

/// Suspends until `condition` holds (polling every few milliseconds, for at most 10 s).
func eventually(_ condition: @Sendable () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() && ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(2))
    }
}

@Suite("Waiting for a refresh: cancellable, bounded by the call's timeout, one refresh after a failure")
struct RefreshWaitingTests {
    private static let stale = AuthTokens(accessToken: "stale", refreshToken: "r1")

    /// How long a call that should end at once may take on a busy machine; a wait that ignored
    /// cancellation or its timeout would last until the gate opens, 30 s at the latest.
    private static let bound: Duration = .seconds(5)

    /// A session whose refresh lasts until `gate` opens (the test opens it after at most 30 s).
    private func slowSession(_ gate: RefreshGate) -> AuthenticationSession {
        Task {
            try? await Task.sleep(for: .seconds(30))
            gate.open()
        }
        return AuthenticationSession(store: InMemoryTokenStore(Self.stale)) { _ in
            await gate.wait()
            return AuthTokens(accessToken: "fresh", refreshToken: "r2")
        }
    }

    private func makeClient(_ session: AuthenticationSession, _ transport: DecidingTransport, timeout: Duration = .seconds(60)) -> Client {
        Client(baseURL: "https://api.example.com", transport: OpenAPITransport(transport)) {
            $0.middleware = [AuthenticationMiddleware(session)]
            $0.timeout = timeout
        }
    }

    private func acceptingFresh() -> DecidingTransport {
        DecidingTransport { _, authorization in authorization == "Bearer fresh" ? .noContent : .unauthorized }
    }

    @Test("a call waiting for a slow refresh ends as cancelled at once when its task is cancelled")
    func cancelledWhileWaiting() async {
        let gate = RefreshGate()
        defer { gate.open() }
        let session = slowSession(gate)
        let client = makeClient(session, acceptingFresh())
        let start = ContinuousClock.now
        let call = Task { await capture { try await client.send(Request<Void>(.get, "items")) } }
        try? await Task.sleep(for: .milliseconds(300))
        call.cancel()
        let result = await call.value
        #expect(ContinuousClock.now - start < Self.bound)
        #expect(result.error?.kind == .cancelled)
    }

    @Test("a call waiting for a slow refresh fails as timed out after its own timeout, not later with success")
    func timedOutWhileWaiting() async {
        let gate = RefreshGate()
        defer { gate.open() }
        let session = slowSession(gate)
        // The first attempt (answered 401 at once) has the same timeout: 2 s leaves it room to
        // finish on a busy machine, so that the timeout that fires is the refresh wait's.
        let client = makeClient(session, acceptingFresh(), timeout: .seconds(2))
        let start = ContinuousClock.now
        let result = await capture { try await client.send(Request<Void>(.get, "items")) }
        #expect(ContinuousClock.now - start < Self.bound)
        let error = result.error
        #expect(error?.kind == .timedOut)
        #expect(error?.message?.hasPrefix("No new token within") == true, "\(String(describing: error))")
    }

    @Test("the refresh goes on after one waiter is cancelled and another times out; the others get the new token")
    func refreshOutlivesWaiters() async throws {
        let gate = RefreshGate()
        defer { gate.open() }
        let session = slowSession(gate)
        let transport = acceptingFresh()
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
        let gate = RefreshGate()
        defer { gate.open() }
        let session = slowSession(gate)
        let used = session.coordinator.stamp
        let first = Task { try await session.renewed(after: used, timeout: .seconds(60)) }
        await eventually { session.refreshCount == 1 }
        let start = ContinuousClock.now
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await session.renewed(after: used, timeout: .seconds(60))
        }
        let error = await #expect(throws: CourierError.self) { try await early.value }
        #expect(error?.kind == .cancelled)
        #expect(ContinuousClock.now - start < Self.bound)
        gate.open()
        #expect(try await first.value?.token == "fresh")
    }

    @Test("a zero timeout fails at once while a refresh is under way")
    func zeroTimeout() async throws {
        let gate = RefreshGate()
        defer { gate.open() }
        let session = slowSession(gate)
        let used = session.coordinator.stamp
        let error = await #expect(throws: CourierError.self) { try await session.renewed(after: used, timeout: .zero) }
        #expect(error?.kind == .timedOut)
        #expect(session.refreshCount == 1, "the refresh started anyway and goes on")
    }

    @Test("a request whose token is known to be expired waits for the renewal only as long as its timeout")
    func expiredTokenWait() async throws {
        let gate = RefreshGate()
        defer { gate.open() }
        let session = AuthenticationSession(store: InMemoryTokenStore(AuthTokens(accessToken: "old", refreshToken: "r", expiresAt: .distantPast))) { _ in
            await gate.wait()
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
        let arrived = LockedBox(0)
        let transport = DecidingTransport { index, _ in
            guard index < 50 else { return .unauthorized }
            arrived.mutate { $0 += 1 }
            await eventually { arrived.value == 50 }
            if index == 0 { return .unauthorized }
            if index.isMultiple(of: 2) {
                await eventually { session.coordinator.stamp.failedRefreshes == 1 }
            } else {
                await eventually { refreshes.value == 1 }
            }
            return .unauthorized
        }
        let client = makeClient(session, transport)
        let results = await withTaskGroup(of: Result<Void, CourierError>.self) { group in
            for index in 0..<50 { group.addTask { await capture { try await client.send(Request<Void>(.get, "items/\(index)")) } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(refreshes.value == 1)
        #expect(results.allSatisfy { $0.error?.kind == .unauthorized }, "each gets its 401")
        #expect(transport.sent.value.count == 50, "nothing replayed")
        _ = await capture { try await client.send(Request<Void>(.get, "later")) }
        #expect(refreshes.value == 2, "a request sent after the failure tries again")
    }
}
