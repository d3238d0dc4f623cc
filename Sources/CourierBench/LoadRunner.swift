import Foundation

/// Runs one operation from `concurrency` workers for a fixed time and records each request's
/// latency, measured from the moment the worker issues it.
enum LoadRunner {
    struct Sample {
        var requests = 0
        var errors = 0
        var elapsed: Duration = .zero
        var latenciesMicroseconds: [Double] = []
        /// What the whole process (client, and the in-process server) used meanwhile.
        var usage = ProcessUsage()

        mutating func add(_ other: Sample) {
            requests += other.requests
            errors += other.errors
            elapsed += other.elapsed
            latenciesMicroseconds += other.latenciesMicroseconds
            usage.add(other.usage)
        }

        /// Process CPU time per request, in microseconds: steadier than requests per second on
        /// a busy machine, since it does not count time spent waiting for a core.
        var cpuMicrosecondsPerRequest: Double {
            requests > 0 ? usage.cpuMicroseconds / Double(requests) : 0
        }

        /// Context switches per request: each one a thread that went to sleep and was woken.
        var contextSwitchesPerRequest: Double {
            requests > 0 ? Double(usage.contextSwitches) / Double(requests) : 0
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
        let usageBefore = ProcessUsage.now()
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
        total.usage = ProcessUsage.now().since(usageBefore)
        return total
    }
}

extension Duration {
    /// The duration in microseconds, with fractions.
    var microseconds: Double {
        Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12
    }
}

/// CPU time and context switches of the whole process, from `getrusage`.
struct ProcessUsage {
    var cpuMicroseconds = 0.0
    var contextSwitches = 0

    static func now() -> ProcessUsage {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return ProcessUsage() }
        func microseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
        return ProcessUsage(
            cpuMicroseconds: microseconds(usage.ru_utime) + microseconds(usage.ru_stime),
            contextSwitches: usage.ru_nvcsw + usage.ru_nivcsw
        )
    }

    func since(_ earlier: ProcessUsage) -> ProcessUsage {
        ProcessUsage(cpuMicroseconds: cpuMicroseconds - earlier.cpuMicroseconds, contextSwitches: contextSwitches - earlier.contextSwitches)
    }

    mutating func add(_ other: ProcessUsage) {
        cpuMicroseconds += other.cpuMicroseconds
        contextSwitches += other.contextSwitches
    }
}

extension LoadRunner.Sample {
    /// One run of `operation`, timed: a sample of one request.
    static func timing(_ operation: () async throws -> Void) async throws -> LoadRunner.Sample {
        let start = ContinuousClock.now
        try await operation()
        let elapsed = ContinuousClock.now - start
        return LoadRunner.Sample(requests: 1, elapsed: elapsed, latenciesMicroseconds: [elapsed.microseconds])
    }
}
