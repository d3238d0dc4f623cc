import Foundation
import ReferenceServer

/// A WebSocket server built on Python's `websockets` library (`Tests/InteropTests/Servers/websocket_server.py`,
/// run by the interop virtual environment's Python), on free ports of 127.0.0.1: `ws` on
/// ``webSocketURL`` and `wss` on ``secureWebSocketURL`` with a certificate from ``certificates``.
///
/// Routes: `/echo`, `/close?code=N&reason=R`, `/drop?after=N`, `/drop-once?key=K&after=N` (only the
/// first connection with that key drops; later ones echo), `/silent` (never answers pings),
/// `/stop-reading`, `/big?bytes=N`, `/speak-first`, `/unauthorized` (401 with a JSON body),
/// `/refuse?status=N&location=L` (that status, with a `Location` when given) and `/record?send=N`. Every connection's events are in ``events``: the handshake's header fields,
/// each message received, pings received, and the close frames received and sent.
///
/// ```swift
/// try await withInteropServer(try await PythonWebSocketServer.start()) { python in
///     let client = Client(baseURL: BaseURL(python.webSocketURL), transport: .asyncHTTPClient())
///     let socket = try await client.webSocket(Request<Void>(.get, "record"))
///     await socket.close(.normalClosure, reason: "done")
///     let closed = try await python.event { $0.event == "closed" }
///     // closed.received?.code == 1000
/// }
/// ```
public struct PythonWebSocketServer: InteropServer {
    /// A close frame as the server's record holds it.
    public struct CloseFrame: Decodable, Sendable, Equatable {
        /// The close code.
        public let code: Int
        /// The reason.
        public let reason: String
    }

    /// One event of the server's record.
    public struct Event: Decodable, Sendable, Equatable {
        /// The connection's number, from 1 in the order of handshakes.
        public let connection: Int
        /// The handshake's target, with its query.
        public let path: String
        /// `handshake`, `message`, `ping`, `pong`, `drop`, `stopped-reading` or `closed`.
        public let event: String
        /// A handshake's header fields, as name and value pairs.
        public let headers: [[String]]?
        /// A message's type: `text` or `binary`.
        public let type: String?
        /// A message's (or a ping's) size in bytes.
        public let bytes: Int?
        /// A text message's text, when it is at most 4 KiB.
        public let text: String?
        /// On `closed`: the close frame the server received, if any.
        public let received: CloseFrame?
        /// On `closed`: the close frame the server sent, if any.
        public let sent: CloseFrame?

        /// A handshake's header field `name` (compared case-insensitively), if present.
        /// - Parameter name: The field's name.
        /// - Returns: The first value.
        public func header(_ name: String) -> String? {
            headers?.first { $0.first?.lowercased() == name.lowercased() }.flatMap { $0.count > 1 ? $0[1] : nil }
        }
    }

    /// `ws://127.0.0.1:PORT`.
    public let webSocketURL: URL
    /// `wss://127.0.0.1:PORT`, with ``certificates``' server certificate.
    public let secureWebSocketURL: URL
    /// `https://127.0.0.1:PORT` of the `wss` listener: the base URL a `Client` opens `wss` sockets with.
    public var secureBaseURL: URL { secureWebSocketURL.replacingScheme("https") }
    /// `http://127.0.0.1:PORT` of the `ws` listener: the base URL a `Client` opens `ws` sockets with.
    public var baseURL: URL { webSocketURL.replacingScheme("http") }
    /// The test CA of the `wss` listener: trust ``LoopbackCertificates/rootCertificatePEM``
    /// (`ServerTrust(additionalRootCertificates:)`), or pin ``LoopbackCertificates/serverPublicKeySHA256``.
    public let certificates: LoopbackCertificates
    /// The Python process, its directory and logs.
    public let process: InteropProcess

    /// Starts the server.
    /// - Returns: The running server.
    /// - Throws: ``MissingInteropComponent`` without the interop virtual environment;
    ///   ``InteropProcess/StartFailure`` when it does not start.
    public static func start() async throws -> PythonWebSocketServer {
        try InteropComponent.pythonServers.check()
        let certificates = try LoopbackCertificates(commonName: "Courier Interop websockets Root")
        let directory = try InteropProcess.makeDirectory("websockets")
        let certificate = directory.appendingPathComponent("server.pem")
        let key = directory.appendingPathComponent("server.key")
        try certificates.serverCertificatePEM.write(to: certificate, atomically: true, encoding: .utf8)
        try certificates.serverPrivateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
        let script = InteropComponent.serversDirectory.appendingPathComponent("websocket_server.py")
        let arguments = [script.path, "--record", directory.appendingPathComponent("record.jsonl").path, "--tls-cert", certificate.path, "--tls-key", key.path]
        let process = try InteropProcess.launch(InteropComponent.python, arguments, in: directory, environment: ["PYTHONUNBUFFERED": "1"])
        do {
            let ports = try JSONDecoder().decode([String: Int].self, from: Data(try await process.line(startingWith: "READY ").utf8))
            guard let plain = ports["ws"], let secure = ports["wss"] else { throw process.failure("named no ports") }
            return PythonWebSocketServer(
                webSocketURL: try InteropTemplate.url("ws://127.0.0.1:\(plain)"),
                secureWebSocketURL: try InteropTemplate.url("wss://127.0.0.1:\(secure)"),
                certificates: certificates,
                process: process
            )
        } catch {
            await process.stop()
            throw error
        }
    }

    /// Every event of the record so far.
    public var events: [Event] {
        process.records(Event.self, in: "record.jsonl")
    }

    /// Waits for an event of the record that matches.
    /// - Parameters:
    ///   - bound: The longest wait.
    ///   - matches: Which event.
    /// - Returns: The first matching event.
    /// - Throws: ``InteropRecordMissing`` with the record so far when none comes within `bound`.
    public func event(within bound: Duration = .seconds(30), where matches: (Event) -> Bool) async throws -> Event {
        try await InteropRecordMissing.wait(for: "websockets record event", within: bound, record: process.text(of: "record.jsonl")) {
            events.first(where: matches)
        }
    }

    /// Stops the server and deletes its files.
    public func stop() async { await process.stop() }
}

extension URL {
    /// This URL with another scheme.
    func replacingScheme(_ scheme: String) -> URL {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        components?.scheme = scheme
        return components?.url ?? self
    }
}
