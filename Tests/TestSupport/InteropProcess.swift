import Foundation
import ReferenceServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A third-party server in a process of its own, with a temporary directory for its configuration,
/// its logs and its records; what the interop launchers (``NginxServer``, ``SquidProxy``,
/// ``DanteProxy``, ``HTTPBinServer``, ``PythonWebSocketServer``, ``PythonEventStreamServer``) run.
///
/// Its standard output and error go to `stdout.log` and `stderr.log` in ``directory``; its standard
/// input is a pipe this object holds open, so a Python server that exits when its input closes also
/// exits when the test process dies. It runs in a process group of its own, which ``stop(signal:within:)``
/// ends whole: no child of the server outlives the test.
public final class InteropProcess: Sendable {
    /// The server did not start: its name, why, and the end of what it wrote.
    public struct StartFailure: Error, CustomStringConvertible {
        /// A sentence naming the server and what went wrong, followed by the end of its output.
        public let description: String
    }

    /// The server's temporary directory: configuration, logs and records.
    public let directory: URL
    /// The program's name, for messages.
    public let name: String
    private let process: SpawnedProcess

    /// Starts `executable` with `arguments`, its files in `directory` (which it then owns and
    /// deletes on stop).
    /// - Parameters:
    ///   - executable: The program.
    ///   - arguments: Its arguments.
    ///   - directory: Its temporary directory.
    ///   - environment: Variables added to the test process's own.
    /// - Returns: The running process.
    /// - Throws: When the program cannot be started.
    public static func launch(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> InteropProcess {
        let process = try SpawnedProcess(
            executable,
            arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: directory.appendingPathComponent("stdout.log"),
            errors: directory.appendingPathComponent("stderr.log")
        )
        return InteropProcess(directory: directory, name: executable.lastPathComponent, process: process)
    }

    private init(directory: URL, name: String, process: SpawnedProcess) {
        self.directory = directory
        self.name = name
        self.process = process
    }

    /// A new temporary directory for a server called `name`, readable and writable by every user
    /// (servers that start as root often write as another).
    /// - Parameter name: A word for the directory's name.
    /// - Returns: The directory.
    /// - Throws: When it cannot be created.
    public static func makeDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-interop-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        return directory
    }

    /// Ports handed out in this test process, never handed out twice: servers started at once by
    /// tests running in parallel would otherwise be given the same free port.
    private static let handedOut = LockedBox<Set<Int>>([])

    /// `count` free ports of 127.0.0.1, none handed out before in this test process.
    /// - Parameter count: How many.
    /// - Returns: The ports.
    /// - Throws: When no socket can be bound.
    public static func freePorts(_ count: Int) async throws -> [Int] {
        var ports: [Int] = []
        while ports.count < count {
            let port = try await ReferenceServer.unusedPort()
            if handedOut.mutate({ $0.insert(port).inserted }) { ports.append(port) }
        }
        return ports
    }

    /// Whether the process still runs.
    public var isRunning: Bool { process.isRunning }

    /// The text of a file in ``directory`` (empty when it does not exist).
    /// - Parameter file: The file's name.
    /// - Returns: Its text.
    public func text(of file: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
    }

    /// What the process wrote to its standard output and error so far.
    public var output: String {
        text(of: "stdout.log") + text(of: "stderr.log")
    }

    /// Waits for a line that starts with `prefix` in `file` (standard output by default).
    /// - Parameters:
    ///   - prefix: The start of the line.
    ///   - file: The file in ``directory`` to read.
    ///   - bound: The longest wait.
    /// - Returns: The rest of the line after `prefix`.
    /// - Throws: ``StartFailure`` when the process exits first or the bound passes.
    public func line(startingWith prefix: String, in file: String = "stdout.log", within bound: Duration = .seconds(60)) async throws -> Substring {
        try await line(in: file, within: bound) { $0.hasPrefix(prefix) }.dropFirst(prefix.count)
    }

    /// Waits for a line of `file` that matches.
    /// - Parameters:
    ///   - file: The file in ``directory`` to read.
    ///   - bound: The longest wait.
    ///   - matches: Which line.
    /// - Returns: The line.
    /// - Throws: ``StartFailure`` when the process exits first or the bound passes.
    public func line(in file: String, within bound: Duration = .seconds(60), where matches: (Substring) -> Bool) async throws -> Substring {
        let deadline = ContinuousClock.now + bound
        while ContinuousClock.now < deadline {
            if let line = text(of: file).split(separator: "\n").first(where: matches) { return line }
            guard process.isRunning else { throw failure("exited before it was ready") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw failure("wrote no awaited line to \(file) within \(bound)")
    }

    /// Waits until something accepts connections on each of `ports` of 127.0.0.1.
    /// - Parameters:
    ///   - ports: The ports.
    ///   - bound: The longest wait.
    /// - Throws: ``StartFailure`` when the process exits first or the bound passes.
    public func waitUntilListening(on ports: [Int], within bound: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + bound
        while ContinuousClock.now < deadline {
            if ports.allSatisfy({ Self.isListening($0) && listensItself(on: $0) }) { return }
            guard process.isRunning else { throw failure("exited before it listened") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw failure("did not listen on \(ports) within \(bound)")
    }

    /// Whether the listening socket on `port` belongs to this process or a process of its group:
    /// a free port picked before the program starts can be taken by another server meanwhile, and
    /// that server's answer must not pass for this one's. Where `/proc` is missing, `true`.
    /// - Parameter port: The port.
    /// - Returns: Whether the socket is the program's own.
    func listensItself(on port: Int) -> Bool {
        guard let inodes = Self.listeningSockets(on: port) else { return true }
        guard !inodes.isEmpty else { return false }
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in processes where entry.allSatisfy(\.isNumber) {
            // The group is the fifth field of stat, after the name in parentheses.
            guard let handle = FileHandle(forReadingAtPath: "/proc/\(entry)/stat") else { continue }
            let stat = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
            try? handle.close()
            guard let afterName = stat.range(of: ") ", options: .backwards) else { continue }
            let fields = stat[afterName.upperBound...].split(separator: " ")
            guard fields.count > 2, Int32(fields[2]) == process.pid else { continue }
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(entry)/fd")) ?? []
            for descriptor in descriptors {
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/fd/\(descriptor)"), inodes.contains(target) {
                    return true
                }
            }
        }
        return false
    }

    /// The inodes (`socket:[N]`) of the sockets listening on 127.0.0.1:`port`, from
    /// `/proc/net/tcp`; `nil` where it is missing. The kernel lists listening sockets first, so the
    /// table (megabytes when many connections wait in TIME_WAIT) is read only up to the first
    /// other.
    static func listeningSockets(on port: Int) -> Set<String>? {
        guard let table = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return nil }
        defer { try? table.close() }
        let local = String(format: "0100007F:%04X", port)
        var inodes: Set<String> = []
        var pending = ""
        var header = true
        while let chunk = try? table.read(upToCount: 1 << 16), !chunk.isEmpty {
            pending += String(decoding: chunk, as: UTF8.self)
            var lines = pending.split(separator: "\n", omittingEmptySubsequences: false)
            pending = String(lines.removeLast())
            for line in lines {
                if header {
                    header = false
                    continue
                }
                // "sl local rem st tx:rx tr:tm retrnsmt uid timeout inode …"; 0A is LISTEN.
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[3] == "0A" else { return inodes }
                if fields[1] == local { inodes.insert("socket:[\(fields[9])]") }
            }
        }
        return inodes
    }

    /// A ``StartFailure`` saying `what`, with the end of the server's output.
    /// - Parameter what: What went wrong.
    /// - Returns: The error.
    public func failure(_ what: String) -> StartFailure {
        StartFailure(description: "\(name) \(what). Its output ends:\n\(String(output.suffix(2000)))")
    }

    /// Stops the process and every process of its group (its input closed and `signal`, then
    /// SIGKILL after `bound`), waits for it, and deletes ``directory``.
    /// - Parameters:
    ///   - signal: The signal that asks the program to stop at once: SIGTERM for most, SIGQUIT for gunicorn.
    ///   - bound: How long it may take to shut down.
    public func stop(signal: Int32 = SIGTERM, within bound: Duration = .seconds(10)) async {
        // The Python servers exit at once when their input closes; their SIGTERM handlers wait
        // for open connections to finish.
        process.closeInput()
        process.signal(signal)
        if await !process.waitForExit(within: bound) {
            process.signal(SIGKILL)
            _ = await process.waitForExit(within: .seconds(30))
        }
        // Children that outlived their parent (a worker between two signals) end with the group.
        process.signal(SIGKILL)
        // COURIER_INTEROP_KEEP=1 keeps the servers' logs and records for a look after the run.
        if ProcessInfo.processInfo.environment["COURIER_INTEROP_KEEP"] != "1" {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    /// - Parameter port: The port.
    /// - Returns: `true` when a connection succeeds.
    public static func isListening(_ port: Int) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }

    /// Each line of `file` in ``directory`` decoded from JSON as `T`; a line that does not decode
    /// (one being written) is left out.
    /// - Parameters:
    ///   - type: The record type.
    ///   - file: The JSON-lines file.
    /// - Returns: The records, in order.
    public func records<T: Decodable>(_ type: T.Type, in file: String) -> [T] {
        let decoder = JSONDecoder()
        return text(of: file).split(separator: "\n").compactMap { try? decoder.decode(T.self, from: Data($0.utf8)) }
    }
}

/// Runs `body` with a server started for it, and stops the server afterwards, also when `body` throws.
///
/// ```swift
/// try await withInteropServer(try await NginxServer.start()) { nginx in … }
/// ```
/// - Parameters:
///   - server: The started server.
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withInteropServer<Server: InteropServer, T>(_ server: Server, _ body: (Server) async throws -> T) async throws -> T {
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A third-party server started for a test.
public protocol InteropServer: Sendable {
    /// Stops the server, waits for its processes to end, and deletes its files.
    func stop() async
}
