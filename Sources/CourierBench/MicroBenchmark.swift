import Courier
import Foundation

/// The layer's own cost per request: building the request from an endpoint, the exchange
/// machinery (cancellation registry, timeout), status validation and error mapping — with a
/// transport that answers at once and no JSON decoding — and, for comparison, what the Swift
/// runtime charges for the task every call runs in (`task_round_trip`).
enum MicroBenchmark {
    /// Answers every request with an empty 200 (or the status asked for) without any I/O.
    struct InstantTransport: Transport {
        let status: HTTPResponse.Status
        var contentCodings: Set<ContentCoding> { [] }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            TransportResponse(response: HTTPResponse(status: status), body: nil)
        }
    }

    /// Runs every measurement, or only those whose name starts with `only`.
    static func run(only: String?) async throws {
        let selected = { (name: String) in only.map { name.hasPrefix($0) } ?? true }
        let ok = Client(baseURL: "http://127.0.0.1:8080/api/v1", transport: InstantTransport(status: .ok)) {
            $0.commonParameters.query["api_key"] = "key"
            $0.commonParameters.headerFields[.userAgent] = "courier-bench"
        }
        let failing = Client(baseURL: "http://127.0.0.1:8080/api/v1", transport: InstantTransport(status: .notFound))
        let endpoint = Request<Void>(.get, "users/\(42)/friends", query: ["page": 2, "sort": "name"])
        let iterations = 200_000

        if selected("build_request") {
            try measure("build_request", iterations: iterations) {
                _ = try ok.prepare(endpoint)
            }
        }
        if selected("send_success") {
            try await measureAsync("send_success", iterations: iterations) {
                try await ok.send(endpoint)
            }
        }
        if selected("send_success_uncoalesced") {
            // The same call with coalescing off: what coalescing costs a call nobody joins.
            ok.configuration.coalescesRequests = false
            defer { ok.configuration.coalescesRequests = true }
            try await measureAsync("send_success_uncoalesced", iterations: iterations) {
                try await ok.send(endpoint)
            }
        }
        if selected("send_error_mapping") {
            try await measureAsync("send_error_mapping", iterations: iterations) {
                do { try await failing.send(endpoint) } catch let error as CourierError where error.kind == .notFound {}
            }
        }
        if selected("task_round_trip") {
            // The Swift runtime's share of a send: one task started on the calling thread and awaited,
            // as the client starts one per attempt (see `InFlightCall.startTask`).
            try await measureAsync("task_round_trip", iterations: iterations) {
                _ = try await roundTrip { 1 }
            }
        }
        try DecoderBenchmark.run(selected: selected)
    }

    /// Starts `operation` in a task of its own the way the client does, and waits for it.
    @inline(never)
    static func roundTrip<Value: Sendable>(_ operation: sending @escaping () async throws -> Value) async throws -> Value {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return try await Task.immediate(operation: operation).value
        }
        #endif
        return try await Task(operation: operation).value
    }

    static func measure(_ name: String, iterations: Int, _ body: () throws -> Void) throws {
        for _ in 0..<1000 { try body() }
        let (start, usage) = (ContinuousClock.now, ProcessUsage.now())
        for _ in 0..<iterations { try body() }
        report(name, ContinuousClock.now - start, ProcessUsage.now().since(usage), iterations)
    }

    static func measureAsync(_ name: String, iterations: Int, _ body: () async throws -> Void) async throws {
        for _ in 0..<1000 { try await body() }
        let (start, usage) = (ContinuousClock.now, ProcessUsage.now())
        for _ in 0..<iterations { try await body() }
        report(name, ContinuousClock.now - start, ProcessUsage.now().since(usage), iterations)
    }

    /// One line: wall-clock and process CPU time per request (CPU time leaves out what the host
    /// stole from this VM).
    static func report(_ name: String, _ elapsed: Duration, _ usage: ProcessUsage, _ iterations: Int) {
        let nanoseconds = elapsed.microseconds * 1000
        let cpuNanoseconds = usage.cpuMicroseconds * 1000
        output(
            "MICRO name=\(name) ns_per_request=\(format(nanoseconds / Double(iterations), 0)) "
                + "cpu_ns_per_request=\(format(cpuNanoseconds / Double(iterations), 0)) iterations=\(iterations)"
        )
    }
}
