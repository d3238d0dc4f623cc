#if AsyncHTTPClient && OfflineQueue
import Courier
import CourierOfflineQueue
import Foundation

/// `--offline-queue`: the offline queue's enqueue latency (each entry written durably before
/// `enqueue` returns), and a drain's time against sending the same requests directly, one after
/// another, through the same client.
struct OfflineQueueWorkload {
    let baseURL: String
    let entries: Int

    func run(transports: [(name: String, make: () -> any Transport)]) async throws {
        for (name, make) in transports {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-queue-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let client = Client(baseURL: BaseURL(baseURL), transport: make())
            let queue = try OfflineQueue(client: client, name: "bench", directory: folder)

            var latencies: [Double] = []
            latencies.reserveCapacity(entries)
            for value in 0..<entries {
                let started = ContinuousClock.now
                try await queue.enqueue(Self.entry("queued-\(name)", value))
                latencies.append(Self.microseconds(ContinuousClock.now - started))
            }
            latencies.sort()

            // Warm the connection, then the same requests directly, then the drain.
            _ = try await client.send(Self.entry("warm-\(name)", 0))
            let directStart = ContinuousClock.now
            for value in 0..<entries {
                _ = try await client.send(Self.entry("direct-\(name)", value).header(.idempotencyKey, UUID().uuidString))
            }
            let direct = ContinuousClock.now - directStart
            let drainStart = ContinuousClock.now
            await queue.drain()
            let drained = ContinuousClock.now - drainStart
            let left = try await queue.count()

            output(
                "offline_queue transport=\(name) entries=\(entries) enqueue_p50_us=\(format(Self.percentile(latencies, 0.5), 0))"
                    + " enqueue_p99_us=\(format(Self.percentile(latencies, 0.99), 0)) enqueue_max_us=\(format(latencies.last ?? 0, 0))"
                    + " direct_ms=\(format(Self.microseconds(direct) / 1000, 1)) drain_ms=\(format(Self.microseconds(drained) / 1000, 1))"
                    + " drain_over_direct=\(format(Self.microseconds(drained) / max(Self.microseconds(direct), 1), 3)) left=\(left)"
            )
        }
    }

    static func entry(_ journal: String, _ value: Int) -> Request<Data> {
        Request<Data>(.post, "journal/\(journal)", body: .json(["value": value]))
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
    }
}
#endif
