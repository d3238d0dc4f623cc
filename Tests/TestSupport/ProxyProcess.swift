import Foundation
import ReferenceServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real proxy (Debian's `tinyproxy` or `microsocks`) in a process of its own on a free port of
/// 127.0.0.1, for tests of what a client does through it.
// @unchecked: `Process` is thread-safe for `terminate()`, `isRunning` and `waitUntilExit()`, but
// not `Sendable`.
public final class ProxyProcess: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    /// Where `tinyproxy` writes its log (the `CONNECT`s it served); `nil` for `microsocks`.
    public let logFile: URL?
    private let process: Process
    private let directory: URL

    private init(port: Int, logFile: URL?, process: Process, directory: URL) {
        self.port = port
        self.logFile = logFile
        self.process = process
        self.directory = directory
    }

    /// Whether `name` is installed in `/usr/bin` or `/usr/sbin`.
    /// - Parameter name: `tinyproxy` or `microsocks`.
    /// - Returns: `true` when the binary exists.
    public static func isInstalled(_ name: String) -> Bool {
        executable(name) != nil
    }

    /// Starts `tinyproxy`, an HTTP proxy that opens tunnels with `CONNECT`.
    /// - Parameters:
    ///   - credentials: The Basic credentials it requires, if any.
    ///   - connectPorts: The only ports it opens tunnels to, if limited.
    /// - Returns: The running proxy.
    /// - Throws: When it is not installed or does not listen within 30 seconds.
    public static func tinyproxy(credentials: (username: String, password: String)? = nil, connectPorts: [Int] = []) async throws -> ProxyProcess {
        let port = try await ReferenceServer.unusedPort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("tinyproxy.log")
        var lines = ["Port \(port)", "Listen 127.0.0.1", "Allow 127.0.0.1", "LogLevel Connect", "LogFile \"\(log.path)\"", "Timeout 30"]
        if let credentials { lines.append("BasicAuth \(credentials.username) \(credentials.password)") }
        lines += connectPorts.map { "ConnectPort \($0)" }
        let configuration = directory.appendingPathComponent("tinyproxy.conf")
        try lines.joined(separator: "\n").write(to: configuration, atomically: true, encoding: .utf8)
        return try await start("tinyproxy", ["-d", "-c", configuration.path], port: port, logFile: log, directory: directory)
    }

    /// Starts `microsocks`, a SOCKS5 proxy.
    /// - Parameter credentials: The username and password it requires, if any.
    /// - Returns: The running proxy.
    /// - Throws: When it is not installed or does not listen within 30 seconds.
    public static func microsocks(credentials: (username: String, password: String)? = nil) async throws -> ProxyProcess {
        let port = try await ReferenceServer.unusedPort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = ["-i", "127.0.0.1", "-p", String(port)]
        if let credentials { arguments += ["-u", credentials.username, "-P", credentials.password] }
        return try await start("microsocks", arguments, port: port, logFile: nil, directory: directory)
    }

    /// The proxy's log so far (empty for `microsocks`).
    public var log: String {
        logFile.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
    }

    /// Stops the proxy and deletes its files.
    public func stop() {
        if process.isRunning {
            process.terminate()
            for _ in 0..<500 where process.isRunning { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func executable(_ name: String) -> URL? {
        ["/usr/bin", "/usr/sbin", "/usr/local/bin"].map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static func start(_ name: String, _ arguments: [String], port: Int, logFile: URL?, directory: URL) async throws -> ProxyProcess {
        guard let executable = executable(name) else {
            throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "\(name) is not installed"])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let proxy = ProxyProcess(port: port, logFile: logFile, process: process, directory: directory)
        // Neither proxy says when it listens: try to connect until it does (30 s at most).
        for _ in 0..<3000 {
            if InteropProcess.isListening(port) { return proxy }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        proxy.stop()
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(name) did not listen on port \(port)"])
    }
}
