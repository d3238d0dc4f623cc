@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import TestSupport
import Testing

/// Identical GETs in flight are sent once: the first caller sends, in its own task; callers that
/// arrive meanwhile wait for its answer, each keeping its own deadline and cancellation; when the
/// first caller leaves, a remaining one sends again.
@Suite("Identical requests in flight are sent once")
struct RequestCoalescingTests {
    let stub = StubTransport()
    let gate = StubGate()
    let item = Request<JSONValue>(.get, "item")

    init() {
        stub.answer(.get("item"), with: .json(["n": 1]).held(until: gate))
    }

    func client(timeout: Duration = .seconds(30)) -> Client {
        Client(baseURL: "https://api.example.com", transport: stub) { $0.timeout = timeout }
    }

    /// How many requests reached the stub.
    var sends: Int { stub.requests.count }

    @Test("callers waiting together get one send, each its own value and facts, and activity counts one")
    func shared() async throws {
        let client = client()
        let calls = (0..<10).map { _ in Task { try await client.response(for: item) } }
        #expect(await eventually { gate.waitingCount == 1 && client.coalescer.waitingCount == 9 })
        #expect(client.inFlightCount == 1, "the exchange counts once, with its first caller")
        gate.open()
        for call in calls {
            let response = try await call.value
            #expect(response.value == ["n": 1])
            #expect(response.attempts == 1)
        }
        #expect(sends == 1)
        #expect(client.inFlightCount == 0)
    }

    @Test("a joiner that is cancelled leaves; the first caller's exchange goes on and answers the rest")
    func joinerLeaves() async throws {
        let client = client()
        let first = Task { await capture { try await client.send(item) } }
        #expect(await eventually { gate.waitingCount == 1 })
        let leaving = Task { await capture { try await client.send(item) } }
        let staying = Task { await capture { try await client.send(item) } }
        #expect(await eventually { client.coalescer.waitingCount == 2 })
        leaving.cancel()
        #expect(await leaving.value.error?.kind == .cancelled)
        #expect(gate.cancelledCount == 0, "the exchange goes on for the others")
        gate.open()
        #expect(try await first.value.get() == ["n": 1])
        #expect(try await staying.value.get() == ["n": 1])
        #expect(sends == 1)
    }

    @Test("a first caller that is cancelled ends its exchange; a joiner sends again and is answered")
    func firstCallerLeaves() async throws {
        let client = client()
        let first = Task { await capture { try await client.send(item) } }
        #expect(await eventually { gate.waitingCount == 1 })
        let joiner = Task { await capture { try await client.send(item) } }
        #expect(await eventually { client.coalescer.waitingCount == 1 })
        first.cancel()
        #expect(await first.value.error?.kind == .cancelled)
        #expect(await eventually { sends == 2 && gate.waitingCount == 1 }, "one more request, from the joiner")
        #expect(gate.cancelledCount == 1)
        gate.open()
        #expect(try await joiner.value.get() == ["n": 1])
        #expect(sends == 2)
        #expect(client.inFlightCount == 0)
    }

    @Test("a first caller that times out while 100 joiners wait costs one more request, and all 100 are answered")
    func firstCallerTimesOut() async throws {
        // Deadlines pass on a clock the test moves, only once every joiner waits.
        let clock = ManualClock()
        let client = Client(baseURL: "https://api.example.com", transport: stub) {
            $0.clock = clock
            $0.timeout = .seconds(30)
        }
        let first = Task { await capture { try await client.send(item.timeout(.seconds(1))) } }
        #expect(await eventually { gate.waitingCount == 1 })
        let joiners = (0..<100).map { _ in Task { await capture { try await client.send(item) } } }
        #expect(await eventually { client.coalescer.waitingCount == 100 })
        await clock.advance(by: .seconds(2))
        #expect(await first.value.error?.kind == .timedOut)
        #expect(await eventually { sends == 2 && gate.waitingCount == 1 && client.coalescer.waitingCount == 99 })
        gate.open()
        for joiner in joiners { #expect(try await joiner.value.get() == ["n": 1]) }
        #expect(sends == 2)
        #expect(client.inFlightCount == 0)
    }

    @Test("a caller that arrives while the joiner sends again joins that exchange")
    func lateJoinerDuringResend() async throws {
        let client = client()
        let first = Task { await capture { try await client.send(item) } }
        #expect(await eventually { gate.waitingCount == 1 })
        let joiner = Task { await capture { try await client.send(item) } }
        #expect(await eventually { client.coalescer.waitingCount == 1 })
        first.cancel()
        #expect(await eventually { sends == 2 && gate.waitingCount == 1 })
        let late = Task { await capture { try await client.send(item) } }
        #expect(await eventually { client.coalescer.waitingCount == 1 })
        gate.open()
        #expect(try await joiner.value.get() == ["n": 1])
        #expect(try await late.value.get() == ["n": 1])
        #expect(sends == 2)
    }

    @Test("each caller keeps its own deadline")
    func ownDeadlines() async throws {
        let client = client()
        let slow = Task { await capture { try await client.send(item) } }
        #expect(await eventually { gate.waitingCount == 1 })
        let quick = await capture { try await client.send(item.timeout(.milliseconds(200))) }
        #expect(quick.error?.kind == .timedOut)
        #expect(gate.cancelledCount == 0)
        gate.open()
        #expect(try await slow.value.get() == ["n": 1])
        #expect(sends == 1)
    }

    @Test("cancelAll ends every caller and the exchange, and sends nothing again")
    func cancelAll() async throws {
        let client = client()
        let calls = (0..<5).map { _ in Task { await capture { try await client.send(item) } } }
        #expect(await eventually { gate.waitingCount == 1 && client.coalescer.waitingCount == 4 })
        client.cancelAll()
        for call in calls { #expect(await call.value.error?.kind == .cancelled) }
        #expect(gate.cancelledCount == 1)
        #expect(sends == 1)
        #expect(client.inFlightCount == 0)
    }

    @Test("a caller arriving as the answer lands is always answered: 2,000 callers in waves")
    func lateJoiners() async throws {
        gate.open()
        let client = client()
        let answered = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<2_000 {
                group.addTask {
                    if index.isMultiple(of: 7) { await Task.yield() }
                    return (try? await client.send(item)) == ["n": 1]
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(answered == 2_000)
        #expect(client.inFlightCount == 0)
    }

    @Test("with coalescing off, or for a POST, every caller sends")
    func notCoalesced() async throws {
        gate.open()
        stub.answer(.post("item"), with: .json(["n": 1]))
        let client = client()
        client.configuration.coalescesRequests = false
        async let a: JSONValue = client.send(item)
        async let b: JSONValue = client.send(item)
        _ = try await (a, b)
        let on = self.client()
        let post = Request<JSONValue>(.post, "item")
        async let c: JSONValue = on.send(post)
        async let d: JSONValue = on.send(post)
        _ = try await (c, d)
        #expect(sends == 4)
    }

    @Test("requests with different credentials, Accept or query are not merged")
    func differentRequests() async throws {
        let client = client()
        let variants = [
            item.header(.authorization, "Bearer a"), item.header(.authorization, "Bearer b"),
            item.header(.accept, "text/csv"), Request<JSONValue>(.get, "item", query: ["page": 2]), item,
        ]
        let calls = variants.map { request in Task { try await client.send(request) } }
        #expect(await eventually { gate.waitingCount == 5 })
        gate.open()
        for call in calls { _ = try await call.value }
        #expect(sends == 5)
    }

    @Test("a caller nobody joined gets its response as sent, and the next identical call sends again")
    func aloneThenAgain() async throws {
        let client = client()
        gate.open()
        let first = try await client.response(for: item)
        #expect(first.value == ["n": 1])
        #expect(first.attempts == 1)
        #expect(client.coalescer.waitingCount == 0)
        _ = try await client.send(item)
        #expect(sends == 2, "an exchange that has ended is not joined")
    }

    @Test("requests that differ only in fields naming them for tracing are merged")
    func tracingFieldsIgnored() async throws {
        let client = client()
        let requestID = try #require(HTTPField.Name("X-Request-ID"))
        let traceparent = try #require(HTTPField.Name("traceparent"))
        let variants = [
            item.header(requestID, "1"),
            item.header(traceparent, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
            item,
        ]
        let first = Task { try await client.send(variants[0]) }
        #expect(await eventually { gate.waitingCount == 1 })
        let others = variants.dropFirst().map { request in Task { try await client.send(request) } }
        #expect(await eventually { client.coalescer.waitingCount == 2 })
        gate.open()
        _ = try await first.value
        for call in others { #expect(try await call.value == ["n": 1]) }
        #expect(sends == 1)
    }
}
