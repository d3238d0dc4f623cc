import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reference server in a process of its own (`courier-demo serve` on a free port), as a real
/// server is: however much work the test's client runs, the server's accept loop and handlers
/// never wait for the test process's threads.
// @unchecked: `Process` is thread-safe for `terminate()`, `isRunning` and `waitUntilExit()`, but
// not `Sendable`.
public final class ReferenceServerProcess: @unchecked Sendable {
    /// The server's origin, e.g. `http://127.0.0.1:41234`.
    public let baseURL: String
    private let process: Process

    private init(baseURL: String, process: Process) {
        self.baseURL = baseURL
        self.process = process
    }

    /// Starts `courier-demo serve --port 0` and waits (30 seconds at most) for the line that says
    /// where it listens.
    /// - Returns: The running server.
    /// - Throws: When the executable is missing, or it does not report its origin in time.
    public static func start() async throws -> ReferenceServerProcess {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "courier-demo")
        process.arguments = ["serve", "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let reported = AsyncStream<String>.makeStream()
        let text = LockedBox("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            // Read on to the end, so that the server never blocks on a full pipe.
            guard !data.isEmpty else {
                reported.continuation.finish()
                return
            }
            let sofar = text.mutate { text in
                text += String(decoding: data, as: UTF8.self)
                return text
            }
            if let found = Self.origin(in: sofar) { reported.continuation.yield(found) }
        }
        try process.run()
        let server = ReferenceServerProcess(baseURL: "", process: process)
        let origin = await firstValue(of: reported.stream, within: .seconds(30))
        guard let origin else {
            server.stop()
            output.fileHandleForReading.readabilityHandler = nil
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "courier-demo serve did not report where it listens"])
        }
        return ReferenceServerProcess(baseURL: origin, process: process)
    }

    /// Stops the server (SIGTERM, then SIGKILL if it is still running after 10 seconds) and waits
    /// for it to exit.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<1000 where process.isRunning { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The `http://…` origin after "listening on " in the server's output, once the line is whole.
    private static func origin(in text: String) -> String? {
        guard let range = text.range(of: "listening on "),
            let end = text[range.upperBound...].firstIndex(where: { $0 == " " || $0 == "\n" })
        else { return nil }
        return String(text[range.upperBound..<end])
    }

    private static func firstValue(of stream: AsyncStream<String>, within limit: Duration) async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await value in stream { return value }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// Starts the reference server in a process of its own, runs `body` with its origin, and stops the
/// server, also when `body` throws.
/// - Parameter body: The test.
/// - Returns: What `body` returns.
/// - Throws: What starting the server or `body` throws.
public func withReferenceServerProcess<T>(_ body: (ReferenceServerProcess) async throws -> T) async throws -> T {
    let server = try await ReferenceServerProcess.start()
    defer { server.stop() }
    return try await body(server)
}
