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
            let seconds = elapsed.microseconds / 1e6
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
                        sample.latenciesMicroseconds.append((clock.now - issued).microseconds)
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
}

extension Duration {
    /// The duration in microseconds, with fractions.
    var microseconds: Double {
        Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12
    }
}
