// Compiled with the package trait `OfflineQueue`, as the module under test is.
#if OfflineQueue
import Courier
import CourierOfflineQueue
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("A drain killed with SIGKILL at a random moment loses nothing and applies nothing twice", .serialized)
struct CrashTests {
    @Test("20 random kill points: a new process finishes the drain, and the server applied each of 100 once, in order", arguments: TransportKind.allCases)
    func killedMidDrain(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            var generator = SystemRandomNumberGenerator()
            var killed = 0
            for round in 0..<20 {
                let folder = try QueueFolder()
                defer { folder.remove() }
                let journal = "crash-\(transport)-\(round)"
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                do {
                    let queue = try OfflineQueue(client: client, name: "crash", directory: folder.url)
                    for value in 0..<100 { try await queue.enqueue(journalEntry(journal, value)) }
                }
                let killAfter = Int.random(in: 0..<95, using: &generator)
                let first = try await QueueWorkerProcess.drain(
                    directory: folder.url,
                    name: "crash",
                    baseURL: backends.server.baseURL,
                    transport: transport,
                    killAfter: killAfter,
                    jitter: UInt32.random(in: 0..<3000, using: &generator)
                )
                if first.killed { killed += 1 }
                let second = try await QueueWorkerProcess.drain(
                    directory: folder.url,
                    name: "crash",
                    baseURL: backends.server.baseURL,
                    transport: transport,
                    killAfter: nil
                )
                #expect(second.status == 0, "round \(round): the second worker did not finish the drain")
                #expect(await backends.server.journal(journal) == Array(0..<100), "round \(round), killed after \(killAfter) deliveries")
            }
            // A kill that came after the worker had finished proves nothing: most must land mid-drain.
            #expect(killed >= 15)
        }
    }

    @Test("10 random kill points during enqueue: every enqueue that returned is stored, whole, and delivered once")
    func killedMidEnqueue() async throws {
        try await withBackends { backends in
            var generator = SystemRandomNumberGenerator()
            var killed = 0
            for round in 0..<10 {
                let folder = try QueueFolder()
                defer { folder.remove() }
                let journal = "enqueue-crash-\(round)"
                let killAfter = Int.random(in: 0..<60, using: &generator)
                let child = try await QueueWorkerProcess.enqueue(
                    directory: folder.url,
                    name: "crash",
                    count: 100,
                    journal: journal,
                    killAfter: killAfter,
                    jitter: UInt32.random(in: 0..<2000, using: &generator)
                )
                let queue = try OfflineQueue(client: Client(baseURL: BaseURL(backends.server.baseURL)), name: "crash", directory: folder.url)
                let stored = try await queue.count()
                if child.killed { killed += 1 }
                #expect(stored >= child.reported, "round \(round): \(child.reported) enqueues returned, \(stored) stored")
                await queue.drain()
                #expect(try await queue.count() == 0)
                #expect(await backends.server.journal(journal) == Array(0..<stored), "round \(round)")
            }
            // On a busy machine the worker may finish before the kill lands; most kills must not.
            #expect(killed >= 7)
        }
    }
}
#endif
