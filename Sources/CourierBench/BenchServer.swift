// Only the AsyncHTTPClient build of the benchmark runs request workloads.
#if AsyncHTTPClient
import Foundation
import ReferenceServer

/// The server a run measures against: the reference server in this process, or one in a process
/// of its own (a `courier-demo serve` the benchmark starts, or one already running at a URL).
///
/// In this process the server shares the client's cooperative threads and hides the client's own
/// thread hops; in another, the CPU time and context switches `getrusage` reports are the
/// client's alone.
struct BenchServer: Sendable {
    /// The server's origin, e.g. `http://127.0.0.1:8080`.
    let baseURL: String
    /// The origin of the server's WebSocket listener (a port of its own), when known.
    let webSocketBaseURL: String?
    /// How the run's figures were measured, for the report's first line.
    let description: String
    private let stopServer: @Sendable () async -> Void

    /// Whether the server runs in another process.
    let isExternal: Bool

    /// The reference server in this process.
    static func inProcess() async throws -> BenchServer {
        let server = try await ReferenceServer.start()
        return BenchServer(
            baseURL: server.baseURL,
            webSocketBaseURL: server.webSocketBaseURL,
            description: "server in this process at \(server.baseURL); CPU and context switches are the whole process's",
            stopServer: { await server.stop() },
            isExternal: false
        )
    }

    /// A server already running at `url`, with its WebSocket listener at `webSocketURL` if given.
    static func running(at url: String, webSocketURL: String?) -> BenchServer {
        BenchServer(
            baseURL: url,
            webSocketBaseURL: webSocketURL,
            description: "server in another process at \(url); CPU and context switches are the client's alone",
            stopServer: {},
            isExternal: true
        )
    }

    /// `courier-demo serve` started from the directory of this executable, on a free port; stopped
    /// by ``stop()``.
    /// - Parameter arguments: More arguments of `serve`, e.g. `--tls`.
    /// - Throws: When the executable is missing or does not report where it listens.
    static func spawned(arguments: [String] = []) async throws -> BenchServer {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let executable = directory.appendingPathComponent("courier-demo")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw SpawnFailure(reason: "no courier-demo beside courier-bench at \(executable.path); build both (swift build -c release)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "0"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let child = ChildProcess(process)
        guard let reported = await origins(in: pipe.fileHandleForReading) else {
            child.stop()
            throw SpawnFailure(reason: "courier-demo serve did not report its URL")
        }
        let url = reported.baseURL
        return BenchServer(
            baseURL: url,
            webSocketBaseURL: reported.webSocketBaseURL,
            description: "courier-demo serve in process \(process.processIdentifier) at \(url); CPU and context switches are the client's alone",
            stopServer: { child.stop() },
            isExternal: true
        )
    }

    private init(
        baseURL: String,
        webSocketBaseURL: String?,
        description: String,
        stopServer: @escaping @Sendable () async -> Void,
        isExternal: Bool
    ) {
        self.baseURL = baseURL
        self.webSocketBaseURL = webSocketBaseURL
        self.description = description
        self.stopServer = stopServer
        self.isExternal = isExternal
    }

    func stop() async {
        await stopServer()
    }

    /// The `http://…` origins in the server's "listening on" line (`Reference server listening on
    /// http://… (analytics on …, WebSockets on http://…).`), read on a thread of its own (the read
    /// blocks) once the line is whole, or `nil` when the output ends first.
    private static func origins(in output: FileHandle) async -> (baseURL: String, webSocketBaseURL: String?)? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var text = ""
                while true {
                    let data = output.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                    if let range = text.range(of: "listening on "),
                        let end = text[range.upperBound...].firstIndex(of: "\n")
                    {
                        let line = text[range.upperBound..<end]
                        let webSocketBaseURL = line.range(of: "WebSockets on ").map { found in
                            String(line[found.upperBound...].prefix(while: { $0 != ")" && $0 != " " }))
                        }
                        continuation.resume(returning: (baseURL: String(line.prefix(while: { $0 != " " })), webSocketBaseURL: webSocketBaseURL))
                        // Keep draining, so the server never blocks writing to a full pipe.
                        while !output.availableData.isEmpty {}
                        return
                    }
                }
                continuation.resume(returning: nil)
            }
        }
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}

/// A child process, terminated once.
// @unchecked: `Process` is thread-safe for `terminate()` and `waitUntilExit()`, but not `Sendable`.
final class ChildProcess: @unchecked Sendable {
    private let process: Process

    init(_ process: Process) {
        self.process = process
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
#endif
