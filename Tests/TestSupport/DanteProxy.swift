import Foundation

/// Debian's dante (`danted`) on a free port of 127.0.0.1, configured from
/// `Tests/InteropTests/Servers/danted.conf`: a SOCKS5 proxy without authentication that connects
/// only to loopback addresses.
///
/// ```swift
/// try await withInteropServer(try await DanteProxy.start()) { dante in
///     let proxy = Proxy.socks5(host: "127.0.0.1", port: dante.port)
///     // … a request through it …
///     try await dante.waitForConnect(toPort: origin)
/// }
/// ```
public struct DanteProxy: InteropServer {
    /// The port it listens on.
    public let port: Int
    /// The danted process, its directory and logs.
    public let process: InteropProcess

    /// Starts danted.
    /// - Returns: The running proxy.
    /// - Throws: ``MissingInteropComponent`` when danted is not installed;
    ///   ``InteropProcess/StartFailure`` when it does not start (three tries, each on a new port).
    public static func start() async throws -> DanteProxy {
        try InteropComponent.dante.check()
        var lastFailure: (any Error)?
        for _ in 0..<3 {
            let directory = try InteropProcess.makeDirectory("dante")
            let port = try await InteropProcess.freePorts(1)[0]
            let values = [
                "DIRECTORY": directory.path,
                "PORT": String(port),
                "USER": getuid() == 0 ? "user.privileged: root\nuser.unprivileged: nobody" : "",
            ]
            let configuration = directory.appendingPathComponent("danted.conf")
            try InteropTemplate.render("danted.conf", values, to: configuration)
            let arguments = ["-f", configuration.path, "-p", directory.appendingPathComponent("danted.pid").path]
            let process = try InteropProcess.launch(InteropComponent.program("danted"), arguments, in: directory)
            do {
                try await process.waitUntilListening(on: [port])
                return DanteProxy(port: port, process: process)
            } catch {
                lastFailure = error
                await process.stop()
            }
        }
        throw lastFailure ?? InteropProcess.StartFailure(description: "danted did not start")
    }

    /// danted's log so far: a `tcp/connect` line for each connection it opened for a client.
    public var log: String { process.text(of: "danted.log") }

    /// Waits for the log line of a connection danted opened to `127.0.0.1:port` for a client.
    /// - Parameters:
    ///   - port: The destination's port.
    ///   - bound: The longest wait.
    /// - Returns: The line.
    /// - Throws: ``InteropRecordMissing`` with the log so far when none comes within `bound`.
    @discardableResult
    public func waitForConnect(toPort port: Int, within bound: Duration = .seconds(30)) async throws -> String {
        try await InteropRecordMissing.wait(for: "danted connect to port \(port)", within: bound, record: log) {
            log.split(separator: "\n").first { $0.contains("tcp/connect [") && $0.hasSuffix(" 127.0.0.1.\(port)") }
                .map(String.init)
        }
    }

    /// Stops danted and its children, and deletes its files.
    public func stop() async { await process.stop() }
}
