import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `courier-queue-worker`, the executable target built beside the test bundle, run as a child
/// process.
enum QueueWorkerProcess {
    /// Runs a drain in a child process; kills it with SIGKILL once it has reported `killAfter`
    /// deliveries and then slept `jitter` microseconds, or lets it finish when `killAfter` is `nil`.
    /// - Returns: The termination status and reason, and how many deliveries it reported.
    static func drain(
        directory: URL,
        name: String,
        baseURL: String,
        transport: TransportKind,
        killAfter: Int?,
        jitter: UInt32 = 0
    ) async throws -> (status: Int32, killed: Bool, reported: Int) {
        // The worker names transports in lower case: `urlsession`, `asynchttpclient`.
        let arguments = ["drain", directory.path, name, baseURL, transport.rawValue.lowercased()]
        return try await run(arguments, counting: "delivered", killAfter: killAfter, jitter: jitter)
    }

    /// Enqueues `count` journal entries in a child process, killed as ``drain(directory:name:baseURL:transport:killAfter:jitter:)`` is.
    /// - Returns: The termination status and reason, and how many enqueues it reported returned.
    static func enqueue(
        directory: URL,
        name: String,
        count: Int,
        journal: String,
        killAfter: Int?,
        jitter: UInt32 = 0
    ) async throws -> (status: Int32, killed: Bool, reported: Int) {
        try await run(["enqueue", directory.path, name, "http://127.0.0.1:9", String(count), journal], counting: "enqueued", killAfter: killAfter, jitter: jitter)
    }

    private static func run(
        _ arguments: [String],
        counting word: String,
        killAfter: Int?,
        jitter: UInt32
    ) async throws -> (status: Int32, killed: Bool, reported: Int) {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "courier-queue-worker")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let delivered = LockedBox(0)
        let reading = output.fileHandleForReading
        reading.readabilityHandler = { handle in
            let data = handle.availableData
            let lines = data.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: Data(word.utf8)) }.count
            let total = delivered.mutate { count in
                count += lines
                return count
            }
            if let killAfter, total >= killAfter, process.isRunning {
                if jitter > 0 { usleep(jitter) }
                kill(process.processIdentifier, SIGKILL)
            }
        }
        try process.run()
        if killAfter == 0 {
            usleep(jitter)
            kill(process.processIdentifier, SIGKILL)
        }
        // Bounded: a worker gives up after its own bounded retries.
        for _ in 0..<6000 where process.isRunning {
            try await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        reading.readabilityHandler = nil
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, delivered.value)
    }
}
