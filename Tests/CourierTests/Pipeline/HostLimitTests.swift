@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import TestSupport
import Testing

/// With ``Configuration/maximumCallsPerHost`` set, calls beyond the limit wait and start in
/// priority order; a waiting call can still be cancelled, and its timeout still applies.
@Suite("Calls per host are limited, and waiting calls start in priority order")
struct HostLimitTests {
    let stub = StubTransport()
    let gate = StubGate()

    init() {
        stub.answer(.path("held/{}"), with: .json(["ok": true]).held(until: gate))
        stub.answer(.path("now/{}"), with: .json(["ok": true]))
    }

    func client(limit: Int?, timeout: Duration = .seconds(60)) -> Client {
        Client(baseURL: "https://api.example.com", transport: stub) {
            $0.maximumCallsPerHost = limit
            $0.timeout = timeout
        }
    }

    /// The paths of the requests that reached the transport, in the order they did.
    var sentPaths: [String] { stub.requests.map(\.path) }

    /// How many calls wait in `client`'s line for its host.
    func waiting(_ client: Client, limit: Int) -> Int {
        client.hostCallQueue(limit: limit).counts(for: "https://api.example.com").waiting
    }

    @Test("with a limit of 2, a user-initiated call queued behind 10 background calls starts before all that wait")
    func userInitiatedFirst() async throws {
        let client = client(limit: 2)
        let firstGate = StubGate()
        stub.answer(.path("first/{}"), with: .json(["ok": true]).held(until: firstGate))
        // Two background calls hold the slots: one answers when `firstGate` opens, one when `gate` does.
        let first = Task { try await client.send(Request<JSONValue>(.get, "first/bg1").priority(.background)) }
        #expect(await eventually { firstGate.waitingCount == 1 })
        let second = Task { try await client.send(Request<JSONValue>(.get, "held/bg2").priority(.background)) }
        #expect(await eventually { gate.waitingCount == 1 })
        let background = (3...10).map { index in
            Task { try await client.send(Request<JSONValue>(.get, "held/bg\(index)").priority(.background)) }
        }
        #expect(await eventually { waiting(client, limit: 2) == 8 })
        let user = Task { try await client.send(Request<JSONValue>(.get, "held/user")) }
        #expect(await eventually { waiting(client, limit: 2) == 9 })
        #expect(sentPaths.count == 2, "work beyond the limit waits")

        // One slot frees: it goes to the user-initiated call, ahead of the eight that came before it.
        firstGate.open()
        _ = try await first.value
        #expect(await eventually { sentPaths.count == 3 })
        #expect(sentPaths.last == "/held/user", "the first slot that frees goes to the user-initiated call")
        #expect(waiting(client, limit: 2) == 8)

        gate.open()
        _ = try await user.value
        _ = try await second.value
        for call in background { _ = try await call.value }
        #expect(sentPaths.count == 11)
        #expect(sentPaths.dropFirst(3).allSatisfy { $0.hasPrefix("/held/bg") })
    }

    @Test("waiting calls of one priority start in the order they came")
    func firstComeFirstServed() async throws {
        let client = client(limit: 1)
        let first = Task { try await client.send(Request<JSONValue>(.get, "held/0")) }
        #expect(await eventually { gate.waitingCount == 1 })
        var calls: [Task<JSONValue, any Error>] = []
        for index in 1...5 {
            calls.append(Task { try await client.send(Request<JSONValue>(.get, "held/\(index)").priority(.prefetch)) })
            #expect(await eventually { waiting(client, limit: 1) == index })
        }
        gate.open()
        _ = try await first.value
        for call in calls { _ = try await call.value }
        #expect(sentPaths == (0...5).map { "/held/\($0)" })
    }

    @Test("a cancelled waiting call leaves the line at once, and activity counts waiting calls")
    func cancelledWhileWaiting() async throws {
        let client = client(limit: 1)
        let running = Task { try await client.send(Request<JSONValue>(.get, "held/running")) }
        #expect(await eventually { gate.waitingCount == 1 })
        let waitingCall = Task { try await client.send(Request<JSONValue>(.get, "held/waiting")) }
        #expect(await eventually { waiting(client, limit: 1) == 1 })
        #expect(client.inFlightCount == 2, "a waiting call counts in activity")
        waitingCall.cancel()
        let error = await #expect(throws: CourierError.self) { try await waitingCall.value }
        #expect(error?.kind == .cancelled)
        #expect(waiting(client, limit: 1) == 0)
        #expect(client.inFlightCount == 1)
        #expect(gate.waitingCount == 1, "the running call is never pre-empted")
        gate.open()
        _ = try await running.value
        #expect(sentPaths == ["/held/running"])
    }

    @Test("cancelAll ends waiting calls too")
    func cancelAllEndsWaiting() async throws {
        let client = client(limit: 1)
        let running = Task { try await client.send(Request<JSONValue>(.get, "held/running")) }
        #expect(await eventually { gate.waitingCount == 1 })
        let waitingCall = Task { try await client.send(Request<JSONValue>(.get, "held/waiting")) }
        #expect(await eventually { waiting(client, limit: 1) == 1 })
        client.cancelAll()
        let waitingError = await #expect(throws: CourierError.self) { try await waitingCall.value }
        #expect(waitingError?.kind == .cancelled)
        let runningError = await #expect(throws: CourierError.self) { try await running.value }
        #expect(runningError?.kind == .cancelled)
        #expect(sentPaths == ["/held/running"])
    }

    @Test("a waiting call's own timeout still applies")
    func timeoutWhileWaiting() async throws {
        let client = client(limit: 1, timeout: .seconds(1))
        let running = Task { try await client.send(Request<JSONValue>(.get, "held/running").timeout(.seconds(120))) }
        #expect(await eventually { gate.waitingCount == 1 })
        let error = await #expect(throws: CourierError.self) { try await client.send(Request<JSONValue>(.get, "now/late")) }
        #expect(error?.kind == .timedOut)
        #expect(waiting(client, limit: 1) == 0)
        gate.open()
        _ = try await running.value
        #expect(sentPaths == ["/held/running"])
    }

    @Test("hosts are limited separately, and without a limit nothing waits")
    func separateHostsAndNoLimit() async throws {
        let client = client(limit: 1)
        let running = Task { try await client.send(Request<JSONValue>(.get, "held/running")) }
        #expect(await eventually { gate.waitingCount == 1 })
        var other = Request<JSONValue>(.get, "now/elsewhere")
        other.baseURL = "https://cdn.example.com"
        #expect(try await client.send(other) == ["ok": true])
        let unlimited = self.client(limit: nil)
        #expect(try await unlimited.send(Request<JSONValue>(.get, "now/free")) == ["ok": true])
        gate.open()
        _ = try await running.value
    }

    @Test("a call made from middleware through the same client, as a token refresh is, finds a slot")
    func callFromMiddleware() async throws {
        let box = LockedBox<Client?>(nil)
        let client = Client(baseURL: "https://api.example.com", transport: stub) {
            $0.maximumCallsPerHost = 1
            // A call of its own through the same client first, as a token refresh is.
            $0.middleware = [
                RunningFirst { request in
                    guard request.path == "/now/outer", let client = box.value else { return }
                    _ = try await client.send(Request<JSONValue>(.get, "now/inner"))
                }
            ]
            $0.timeout = .seconds(60)
        }
        box.mutate { $0 = client }
        let outer = try await client.send(Request<JSONValue>(.get, "now/outer"))
        #expect(outer == ["ok": true])
        #expect(sentPaths == ["/now/inner", "/now/outer"])
    }
}
