import Foundation

/// Runs one operation from `concurrency` workers for a fixed time and records each request's
/// latency, measured from the moment the worker issues it.
enum LoadRunner {
    struct Sample {
        var requests = 0
        var errors = 0
        var elapsed: Duration = .zero
        var latenciesMicroseconds: [Double] = []

        mutating func add(_ other: Sample) {
            requests += other.requests
            errors += other.errors
            elapsed += other.elapsed
            latenciesMicroseconds += other.latenciesMicroseconds
        }

        var requestsPerSecond: Double {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return seconds > 0 ? Double(requests) / seconds : 0
        }

        func percentile(_ fraction: Double) -> Double {
            guard !latenciesMicroseconds.isEmpty else { return 0 }
            let sorted = latenciesMicroseconds.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    static func run(
        concurrency: Int,
        duration: Duration,
        _ operation: @escaping @Sendable () async throws -> Void
    ) async -> Sample {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        var total = await withTaskGroup(of: Sample.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var sample = Sample()
                    sample.latenciesMicroseconds.reserveCapacity(4096)
                    while clock.now < deadline {
                        let issued = clock.now
                        do {
                            try await operation()
                            sample.requests += 1
                        } catch {
                            sample.errors += 1
                        }
                        let latency = clock.now - issued
                        sample.latenciesMicroseconds.append(
                            Double(latency.components.seconds) * 1e6 + Double(latency.components.attoseconds) / 1e12
                        )
                    }
                    return sample
                }
            }
            var merged = Sample()
            for await sample in group { merged.add(sample) }
            return merged
        }
        total.elapsed = clock.now - start
        return total
    }

    /// The process's peak resident memory so far, from `/proc/self/status` (0 where unavailable).
    static func peakRSSMebibytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").compactMap({ Double($0) }).first
        else { return 0 }
        return kilobytes / 1024
    }
}
