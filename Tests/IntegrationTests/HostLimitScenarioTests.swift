import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

/// The per-host limit against the reference server: the journal records the order in which
/// requests reach it, each after the same delay, so it is the order in which they were sent.
@Suite("Under a per-host limit, user-initiated calls reach the server before waiting background ones", .timingSensitive)
struct HostLimitScenarioTests {
    struct Entry: Encodable, Sendable {
        var value: Int
    }

    struct Receipt: Decodable, Sendable {
        var position: Int
    }

    /// A call that reaches `/journal/{name}` after a second at the server.
    static func entry(_ value: Int, in name: String, priority: RequestPriority) -> Request<Receipt> {
        Request<Receipt>(.post, "journal/\(name)", body: .json(Entry(value: value)))
            .header(.fault, "delay=1000")
            .priority(priority)
    }

    @Test("with a limit of 2, a user-initiated call sent after 10 background calls reaches the server third or fourth", arguments: TransportKind.allCases)
    func userInitiatedOvertakesWaitingBackground(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                $0.maximumCallsPerHost = 2
                $0.timeout = .seconds(120)
            }
            let before = backends.server.requestCount
            let background = (1...10).map { value in
                Task { try await client.send(Self.entry(value, in: "limit", priority: .background)) }
            }
            // Two background calls at the server (each held there a second), the other eight in line.
            #expect(await eventually { backends.server.requestCount == before + 2 && client.inFlightCount == 10 })
            let user = try await client.send(Self.entry(0, in: "limit", priority: .userInitiated))
            for call in background { _ = try await call.value }
            let order = await backends.server.journal("limit")
            #expect(order.count == 11)
            #expect(!order.prefix(2).contains(0), "two background calls held both slots when it came: \(order)")
            #expect(user.position <= 4, "only the background call that took the other free slot may come between: \(order)")
            #expect(order.firstIndex(of: 0).map { $0 <= 3 } == true, "\(order)")
        }
    }
}
