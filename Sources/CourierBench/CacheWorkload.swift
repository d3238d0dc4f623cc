#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation

/// The cache and coalescing in numbers, one at a time in flight over AsyncHTTPClient: the
/// 100-record list from the network, as a fresh hit from memory, and as a fresh hit from disk
/// (no memory store); and the list from the network with coalescing on and off. The sides of each
/// comparison alternate within each round.
struct CacheWorkload {
    let baseURL: String
    let rounds: Int
    let duration: Duration

    /// The list as the cache sees it: fresh for an hour.
    static let list = Request<[BenchRecord]>(.get, "bench/list", query: ["count": 100, "max_age": 3600])
    /// The list without caching fields.
    static let plainList = Request<[BenchRecord]>(.get, "bench/list", query: ["count": 100])
    /// The list's bytes, undecoded: the cost of the cache itself.
    static let listBytes = Request<Data>(.get, "bench/list", query: ["count": 100, "max_age": 3600])
    static let plainListBytes = Request<Data>(.get, "bench/list", query: ["count": 100])

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let network = client(cache: nil)
        let memory = client(cache: ResponseCache())
        let diskCache = try ResponseCache(directory: directory, memoryLimit: 0)
        let disk = client(cache: diskCache)
        _ = try await memory.send(Self.list)
        _ = try await disk.send(Self.list)
        _ = try await memory.send(Self.listBytes)
        _ = try await disk.send(Self.listBytes)
        await diskCache.synchronize()
        let coalescing = client(cache: nil)
        let separate = client(cache: nil)
        separate.configuration.coalescesRequests = false

        output("## Cache and coalescing: the 100-record list (10.7 KB), 1 in flight, AsyncHTTPClient")
        output("| side | p50 µs | p99 µs | CPU µs/request | switches/request | requests |")
        output("| --- | ---: | ---: | ---: | ---: | ---: |")
        let cacheSides: [(String, @Sendable () async throws -> Void)] = [
            ("decoded: network (no cache)", { _ = try await network.send(Self.plainList) }),
            ("decoded: fresh hit, memory", { _ = try await memory.send(Self.list) }),
            ("decoded: fresh hit, disk", { _ = try await disk.send(Self.list) }),
            ("bytes: network (no cache)", { _ = try await network.send(Self.plainListBytes) }),
            ("bytes: fresh hit, memory", { _ = try await memory.send(Self.listBytes) }),
            ("bytes: fresh hit, disk", { _ = try await disk.send(Self.listBytes) }),
        ]
        let cacheSamples = await alternate(cacheSides.map(\.1))
        for (side, sample) in zip(cacheSides, cacheSamples) { row(side.0, sample) }
        let coalescingSamples = await alternate([
            { _ = try await coalescing.send(Self.plainList) }, { _ = try await separate.send(Self.plainList) },
        ])
        row("network, coalescing on", coalescingSamples[0])
        row("network, coalescing off", coalescingSamples[1])
        func ratio(_ hit: Int, _ network: Int) -> String {
            format(cacheSamples[hit].percentile(0.5) / cacheSamples[network].percentile(0.5), 4)
        }
        output("")
        output(
            "RESULT workload=cache memory_hit_ratio=\(ratio(1, 0)) disk_hit_ratio=\(ratio(2, 0))"
                + " memory_hit_bytes_ratio=\(ratio(4, 3)) disk_hit_bytes_ratio=\(ratio(5, 3))"
                + " coalescing_cpu_ratio=\(format(coalescingSamples[0].cpuMicrosecondsPerRequest / coalescingSamples[1].cpuMicrosecondsPerRequest, 4))"
        )
    }

    private func client(cache: ResponseCache?) -> Client {
        Client(baseURL: BaseURL(baseURL), transport: .asyncHTTPClient(.courierShared)) {
            if let cache { $0.middleware = [CachingMiddleware(cache)] }
        }
    }

    /// Each operation for `duration` per round, in turn, the order rotating every round.
    private func alternate(_ operations: [@Sendable () async throws -> Void]) async -> [LoadRunner.Sample] {
        var samples = Array(repeating: LoadRunner.Sample(), count: operations.count)
        for operation in operations { _ = await LoadRunner.run(concurrency: 1, duration: .milliseconds(300), operation) }
        for round in 0..<rounds {
            for step in 0..<operations.count {
                let index = (step + round) % operations.count
                samples[index].add(await LoadRunner.run(concurrency: 1, duration: duration, operations[index]))
            }
        }
        return samples
    }

    private func row(_ side: String, _ sample: LoadRunner.Sample) {
        let errors = sample.errors > 0 ? " (\(sample.errors) errors)" : ""
        output(
            "| \(side) | \(format(sample.percentile(0.5), 1)) | \(format(sample.percentile(0.99), 1))"
                + " | \(format(sample.cpuMicrosecondsPerRequest, 1)) | \(format(sample.contextSwitchesPerRequest, 2)) | \(sample.requests)\(errors) |"
        )
    }
}
#endif
