import Foundation

/// Server-sent events from a third-party library: sse-starlette under uvicorn
/// (`Tests/InteropTests/Servers/event_stream_server.py`, run by the interop virtual environment's
/// Python) on a free port of 127.0.0.1.
///
/// Routes: `/events?count=N&interval_ms=M&retry=R` (events `tick` with ids 1…N and data `{"n": id}`,
/// going on after a `Last-Event-ID`), `/events/multiline` (one event whose data has three lines,
/// then a comment) and `/events/close-after?count=N` (N events, then the response ends). Every
/// request is in ``requests``: the server's own record.
///
/// ```swift
/// try await withInteropServer(try await PythonEventStreamServer.start()) { sse in
///     let client = Client(baseURL: BaseURL(sse.baseURL), transport: .urlSession())
///     // … client.events(…) …
///     let resumed = try await sse.request { $0.header("last-event-id") == "2" }
/// }
/// ```
public struct PythonEventStreamServer: InteropServer {
    /// One request as the server recorded it.
    public struct RequestRecord: Decodable, Sendable, Equatable {
        /// The path, without the query.
        public let path: String
        /// The query.
        public let query: String
        /// The header fields as name and value pairs (names in lower case).
        public let headers: [[String]]

        /// The header field `name`, if present.
        /// - Parameter name: The field's name, in lower case.
        /// - Returns: Its value.
        public func header(_ name: String) -> String? {
            headers.first { $0.first == name.lowercased() }.flatMap { $0.count > 1 ? $0[1] : nil }
        }
    }

    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The Python process, its directory and logs.
    public let process: InteropProcess

    /// Starts the server.
    /// - Returns: The running server.
    /// - Throws: ``MissingInteropComponent`` without the interop virtual environment;
    ///   ``InteropProcess/StartFailure`` when it does not start.
    public static func start() async throws -> PythonEventStreamServer {
        try InteropComponent.pythonServers.check()
        let directory = try InteropProcess.makeDirectory("sse")
        let script = InteropComponent.serversDirectory.appendingPathComponent("event_stream_server.py")
        let arguments = [script.path, "--record", directory.appendingPathComponent("record.jsonl").path]
        let process = try InteropProcess.launch(InteropComponent.python, arguments, in: directory, environment: ["PYTHONUNBUFFERED": "1"])
        do {
            let ports = try JSONDecoder().decode([String: Int].self, from: Data(try await process.line(startingWith: "READY ").utf8))
            guard let port = ports["http"] else { throw process.failure("named no port") }
            return PythonEventStreamServer(baseURL: try InteropTemplate.url("http://127.0.0.1:\(port)"), process: process)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// Every request of the record so far.
    public var requests: [RequestRecord] {
        process.records(RequestRecord.self, in: "record.jsonl")
    }

    /// Waits for a request of the record that matches.
    /// - Parameters:
    ///   - bound: The longest wait.
    ///   - matches: Which request.
    /// - Returns: The first matching request.
    /// - Throws: ``InteropRecordMissing`` with the record so far when none comes within `bound`.
    public func request(within bound: Duration = .seconds(30), where matches: (RequestRecord) -> Bool) async throws -> RequestRecord {
        try await InteropRecordMissing.wait(for: "sse-starlette request", within: bound, record: process.text(of: "record.jsonl")) {
            requests.first(where: matches)
        }
    }

    /// Stops the server and deletes its files.
    public func stop() async { await process.stop() }
}
