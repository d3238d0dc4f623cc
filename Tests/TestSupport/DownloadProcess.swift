import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `courier-demo download` run as a child process: a resumable download in an app that can be
/// killed mid-way.
public enum DownloadProcess {
    /// Downloads `path` below `baseURL` to `destination` in a child process, and kills it with
    /// SIGKILL once it reports `killAfter` bytes saved (or lets it finish when `nil`).
    /// - Parameters:
    ///   - baseURL: The server's origin.
    ///   - path: The path, e.g. `ranged/1000`.
    ///   - query: Query items as `name=value`.
    ///   - destination: The file.
    ///   - transport: The transport, as the demo names it (`urlsession`, `asynchttpclient`).
    ///   - killAfter: The bytes saved after which the child is killed.
    /// - Returns: Whether it was killed, and the most bytes it reported saved.
    /// - Throws: When the executable is missing.
    public static func run(
        baseURL: String,
        path: String,
        query: [String] = [],
        to destination: URL,
        transport: String,
        killAfter: Int64?
    ) async throws -> (killed: Bool, reported: Int64) {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "courier-demo")
        process.arguments =
            ["download", "--base-url", baseURL, "--path", path, "--to", destination.path, "--transport", transport]
            + query.flatMap { ["--query", $0] }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let saved = LockedBox<Int64>(0)
        let pending = LockedBox("")
        let reading = output.fileHandleForReading
        reading.readabilityHandler = { handle in
            let text = pending.mutate { pending in
                pending += String(decoding: handle.availableData, as: UTF8.self)
                return pending
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            pending.mutate { $0 = String(lines.last ?? "") }
            for line in lines.dropLast() where line.hasPrefix("saved ") {
                let bytes = Int64(line.dropFirst("saved ".count)) ?? 0
                saved.mutate { $0 = max($0, bytes) }
                if let killAfter, bytes >= killAfter, process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
        }
        try process.run()
        // Bounded: ten minutes, however slow the machine.
        for _ in 0..<60_000 where process.isRunning {
            try await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        reading.readabilityHandler = nil
        return (process.terminationReason == .uncaughtSignal, saved.value)
    }
}
