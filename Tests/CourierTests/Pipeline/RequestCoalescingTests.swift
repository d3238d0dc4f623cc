@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import TestSupport
import Testing

/// Identical GETs in flight share one exchange; every caller keeps its own answer, deadline and
/// cancellation.
@Suite("Identical requests in flight are sent once")
struct RequestCoalescingTests {
    /// A transport that holds every request until released, counting sends and cancellations.
    final class HeldTransport: Transport {
        let contentCodings: Set<ContentCoding> = []
        let sends = LockedBox(0)
        let cancellations = LockedBox(0)
        private let waiting = LockedBox<[CheckedContinuation<Void, Never>]>([])
        private let released = LockedBox(false)

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            sends.increment()
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let resumeNow = released.value || Task.isCancelled
                    if resumeNow { continuation.resume() } else { waiting.append(continuation) }
                }
            } onCancel: {
                cancellations.increment()
                release()
            }
            try Task.checkCancellation()
            return TransportResponse(
                response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                body: HTTPBody(#"{"n":1}"#)
            )
        }

        func release() {
            released.mutate { $0 = true }
            let continuations = waiting.mutate { list in
                defer { list = [] }
                return list
            }
            for continuation in continuations { continuation.resume() }
        }
    }

    let transport = HeldTransport()
    let item = Request<JSONValue>(.get, "item")

    func client(timeout: Duration = .seconds(30)) -> Client {
        Client(baseURL: "https://api.example.com", transport: transport) { $0.timeout = timeout }
    }

    /// Waits until `condition` holds, or about five seconds.
    func eventually(_ condition: () -> Bool) async {
        for _ in 0..<500 where !condition() { try? await Task.sleep(for: .milliseconds(10)) }
    }

    @Test("callers waiting together get one send, each its own value and facts, and activity counts one")
    func shared() async throws {
        let client = client()
        let calls = (0..<10).map { _ in Task { try await client.response(for: item) } }
        await eventually { client.inFlightCount == 1 && transport.sends.value == 1 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(client.inFlightCount == 1, "the shared exchange counts once")
        transport.release()
        for call in calls {
            let response = try await call.value
            #expect(response.value == ["n": 1])
            #expect(response.attempts == 1)
        }
        #expect(transport.sends.value == 1)
        #expect(client.inFlightCount == 0)
    }

    @Test("cancelling one caller leaves the others; the send is cancelled when the last one leaves")
    func cancellation() async throws {
        let client = client()
        let first = Task { await capture { try await client.send(item) } }
        let second = Task { await capture { try await client.send(item) } }
        await eventually { transport.sends.value == 1 }
        try await Task.sleep(for: .milliseconds(50))
        first.cancel()
        #expect(await first.value.error?.kind == .cancelled)
        #expect(transport.cancellations.value == 0, "the other caller still waits")
        second.cancel()
        #expect(await second.value.error?.kind == .cancelled)
        await eventually { transport.cancellations.value == 1 }
        #expect(transport.cancellations.value == 1)
        #expect(client.inFlightCount == 0)
    }

    @Test("each caller keeps its own deadline")
    func ownDeadlines() async throws {
        // One client; the second caller's endpoint has a shorter timeout.
        let client = client()
        let slow = Task { await capture { try await client.send(item) } }
        await eventually { transport.sends.value == 1 }
        let quick = await capture { try await client.send(item.timeout(.milliseconds(200))) }
        #expect(quick.error?.kind == .timedOut)
        #expect(transport.cancellations.value == 0)
        transport.release()
        #expect(try await slow.value.get() == ["n": 1])
        #expect(transport.sends.value == 1)
    }

    @Test("cancelAll cancels every caller and the shared send")
    func cancelAll() async throws {
        let client = client()
        let calls = (0..<5).map { _ in Task { await capture { try await client.send(item) } } }
        await eventually { transport.sends.value == 1 }
        try await Task.sleep(for: .milliseconds(50))
        client.cancelAll()
        for call in calls { #expect(await call.value.error?.kind == .cancelled) }
        await eventually { transport.cancellations.value == 1 }
        #expect(transport.cancellations.value == 1)
        #expect(client.inFlightCount == 0)
    }

    @Test("a caller arriving as the answer lands is always answered: 2,000 callers in waves")
    func lateJoiners() async throws {
        transport.release()
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
        transport.release()
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
        #expect(transport.sends.value == 4)
    }

    @Test("requests with different credentials, Accept or query are not merged")
    func differentRequests() async throws {
        let client = client()
        let variants = [
            item.header(.authorization, "Bearer a"), item.header(.authorization, "Bearer b"),
            item.header(.accept, "text/csv"), Request<JSONValue>(.get, "item", query: ["page": 2]), item,
        ]
        let calls = variants.map { request in Task { try await client.send(request) } }
        await eventually { transport.sends.value == 5 }
        #expect(transport.sends.value == 5)
        transport.release()
        for call in calls { _ = try await call.value }
    }
}
