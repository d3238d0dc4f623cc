import Foundation

/// Debian's squid on a free port of 127.0.0.1, configured from `Tests/InteropTests/Servers/squid.conf`:
/// an HTTP proxy (absolute-form requests and `CONNECT` to any port) that requires Basic credentials
/// (`basic_ncsa_auth` over an `htpasswd` file) and caches nothing.
///
/// ```swift
/// try await withInteropServer(try await SquidProxy.start()) { squid in
///     let proxy = Proxy.http(host: "127.0.0.1", port: squid.port, credentials: squid.credentials)
///     // … a request through it …
///     let tunnel = try await squid.accessRecord { $0.method == "CONNECT" }
/// }
/// ```
public struct SquidProxy: InteropServer {
    /// One request of squid's access log (written when the exchange or tunnel ends).
    public struct AccessRecord: Sendable, Equatable {
        /// The method, `CONNECT` for a tunnel.
        public let method: String
        /// The URL, or `host:port` for a tunnel.
        public let url: String
        /// The authenticated user, `-` for none.
        public let user: String
        /// The status squid sent the client (`407` when credentials were missing or wrong).
        public let status: Int
        /// What squid did, e.g. `TCP_TUNNEL`, `TCP_MISS`, `TCP_DENIED`.
        public let result: String

        init?(_ line: Substring) {
            let fields = line.split(separator: " ")
            // A connection that sent no request (the launcher's check that squid listens) is no request.
            guard fields.count >= 5, fields[0] != "-", let status = Int(fields[3]) else { return nil }
            method = String(fields[0])
            url = String(fields[1])
            user = String(fields[2])
            self.status = status
            result = String(fields[4])
        }
    }

    /// The port it listens on.
    public let port: Int
    /// The only credentials it accepts.
    public let credentials: (username: String, password: String)
    /// The squid process, its directory and logs.
    public let process: InteropProcess

    /// Starts squid.
    /// - Parameters:
    ///   - username: The user it accepts.
    ///   - password: That user's password.
    ///   - connectPorts: When given, squid's stock rule `http_access deny CONNECT !SSL_ports` with
    ///     `SSL_ports` 443 and these ports: a tunnel to any other port is refused with 403. `nil`
    ///     (the default) opens tunnels to any port.
    /// - Returns: The running proxy.
    /// - Throws: ``MissingInteropComponent`` when squid or htpasswd is not installed;
    ///   ``InteropProcess/StartFailure`` when it does not start (three tries, each on a new port).
    public static func start(username: String = "ada", password: String = "squid-secret-5kq", connectPorts: [Int]? = nil) async throws -> SquidProxy {
        try InteropComponent.squid.check()
        var lastFailure: (any Error)?
        for _ in 0..<3 {
            let directory = try InteropProcess.makeDirectory("squid")
            let port = try await InteropProcess.freePorts(1)[0]
            let passwords = directory.appendingPathComponent("passwords")
            try await htpasswd(passwords, username: username, password: password)
            let values = [
                "DIRECTORY": directory.path,
                "PORT": String(port),
                "USER": getuid() == 0 ? "cache_effective_user proxy" : "",
                "BASIC_NCSA_AUTH": "/usr/lib/squid/basic_ncsa_auth",
                "CONNECT_RULES": connectPorts.map { ports in
                    ["acl SSL_ports port \((["443"] + ports.map(String.init)).joined(separator: " "))", "acl CONNECT method CONNECT", "http_access deny CONNECT !SSL_ports"]
                        .joined(separator: "\n")
                } ?? "",
            ]
            let configuration = directory.appendingPathComponent("squid.conf")
            try InteropTemplate.render("squid.conf", values, to: configuration)
            let process = try InteropProcess.launch(InteropComponent.program("squid"), ["-N", "-f", configuration.path], in: directory)
            do {
                try await process.waitUntilListening(on: [port])
                return SquidProxy(port: port, credentials: (username, password), process: process)
            } catch {
                lastFailure = error
                await process.stop()
            }
        }
        throw lastFailure ?? InteropProcess.StartFailure(description: "squid did not start")
    }

    /// Writes an `htpasswd` file with one user (MD5, which `basic_ncsa_auth` reads), readable by squid's user.
    private static func htpasswd(_ file: URL, username: String, password: String) async throws {
        let directory = file.deletingLastPathComponent()
        let tool = try InteropProcess.launch(InteropComponent.program("htpasswd"), ["-b", "-c", "-m", file.path, username, password], in: directory)
        for _ in 0..<1000 where tool.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        guard FileManager.default.fileExists(atPath: file.path) else { throw tool.failure("wrote no password file") }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    }

    /// Every line of the access log so far.
    public var accessRecords: [AccessRecord] {
        process.text(of: "access.log").split(separator: "\n").compactMap(AccessRecord.init)
    }

    /// Waits for an access log line that matches (squid writes a tunnel's line when it closes).
    /// - Parameters:
    ///   - bound: The longest wait.
    ///   - matches: Which line.
    /// - Returns: The first matching line.
    /// - Throws: ``InteropRecordMissing`` with the log so far when none comes within `bound`.
    public func accessRecord(within bound: Duration = .seconds(30), where matches: (AccessRecord) -> Bool) async throws -> AccessRecord {
        try await InteropRecordMissing.wait(for: "squid access log line", within: bound, record: process.text(of: "access.log")) {
            accessRecords.first(where: matches)
        }
    }

    /// Stops squid (at once: `shutdown_lifetime 0`) and deletes its files.
    public func stop() async { await process.stop(within: .seconds(20)) }
}
