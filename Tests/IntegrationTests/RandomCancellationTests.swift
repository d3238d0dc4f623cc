import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("Random cancellation never hangs a transport", .heavyLoad)
struct RandomCancellationTests {
    static let rounds = 20
    static let callsPerRound = 500

    /// The server runs in a process of its own, as a real one does: in this process its accept
    /// loop and handlers would wait behind the storm's 500 tasks for the same two cooperative
    /// threads, and the test would measure that queue instead of the client.
    ///
    /// Every call here is the first of its kind, so with coalescing on or off the caller's
    /// cancellation reaches the transport directly (over AsyncHTTPClient, the `HTTPClient.Task` of
    /// its delegate API). The last call proves the client still works after the storm.
    @Test(
        "20 rounds of 500 calls, each cancelled at a random moment, all end and leave nothing in flight",
        .timeLimit(.minutes(10)),
        arguments: TransportKind.allCases, [true, false]
    )
    func randomCancellation(transport: TransportKind, coalescing: Bool) async throws {
        try await withReferenceServerProcess { server in
            let client = Client(baseURL: BaseURL("\(server.baseURL)/echo"), transport: transport.make()) {
                $0.timeout = .seconds(30)
                $0.coalescesRequests = coalescing
            }
            var failures: [CourierError.Kind: Int] = [:]
            for _ in 0..<Self.rounds {
                let kinds = await withTaskGroup(of: CourierError.Kind?.self, returning: [CourierError.Kind?].self) { group in
                    for call in 0..<Self.callsPerRound {
                        group.addTask {
                            let delay = Int.random(in: 0...20)
                            let task = Task {
                                try await client.send(Request<Data>(.get, "x/\(call)").header(.fault, "delay=\(delay)"))
                            }
                            try? await Task.sleep(for: .microseconds(Int.random(in: 0...15_000)))
                            task.cancel()
                            switch await task.result {
                            case .success: return nil
                            case .failure(let error): return CourierError(error).kind
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                #expect(kinds.count == Self.callsPerRound)
                for case let kind? in kinds { failures[kind, default: 0] += 1 }
            }
            // A call either finished before its cancellation or ended as cancelled.
            #expect(Set(failures.keys).isSubset(of: [.cancelled]), "\(failures)")
            #expect(client.inFlightCount == 0)
            // The client still works afterwards.
            _ = try await client.send(Request<Data>(.get, "after"))
        }
    }
}
