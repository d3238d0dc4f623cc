import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// httpbin (the Python `httpbin` package) under gunicorn, from the interop virtual environment, on a
/// free port of 127.0.0.1 that gunicorn picks and names in its log: `/get`, `/post`,
/// `/cookies/set?a=1`, `/redirect/N`, `/basic-auth/USER/PASSWORD`, `/gzip`, `/status/N`,
/// `/delay/N` and the rest of httpbin.
///
/// ```swift
/// try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
///     let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: .urlSession())
///     // … GET get …
///     let line = try await httpbin.accessRecord { $0.request.hasPrefix("GET /get") }
/// }
/// ```
public struct HTTPBinServer: InteropServer {
    /// One line of gunicorn's access log; a field the request lacked reads `-`.
    public struct AccessRecord: Decodable, Sendable, Equatable {
        /// The request line, e.g. `GET /get HTTP/1.1`.
        public let request: String
        /// The status sent.
        public let status: String
        /// The request's `Content-Length`.
        public let contentLength: String
        /// The request's `Transfer-Encoding`.
        public let transferEncoding: String
        /// The request's `Cookie`.
        public let cookie: String
        /// Whether the request had `Authorization` (`-` when not; never its value).
        public let authorization: String
        /// The request's `Accept-Encoding`.
        public let acceptEncoding: String

        enum CodingKeys: String, CodingKey {
            case request, status, cookie, authorization
            case contentLength = "content_length"
            case transferEncoding = "transfer_encoding"
            case acceptEncoding = "accept_encoding"
        }
    }

    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The gunicorn process, its directory and logs.
    public let process: InteropProcess

    /// Starts httpbin.
    /// - Returns: The running server.
    /// - Throws: ``MissingInteropComponent`` without the interop virtual environment;
    ///   ``InteropProcess/StartFailure`` when it does not start.
    public static func start() async throws -> HTTPBinServer {
        try InteropComponent.pythonServers.check()
        let directory = try InteropProcess.makeDirectory("httpbin")
        let format =
            #"{"request": "%(r)s", "status": "%(s)s", "content_length": "%({content-length}i)s", "#
            + #""transfer_encoding": "%({transfer-encoding}i)s", "cookie": "%({cookie}i)s", "#
            + #""authorization": "%({authorization}i)s", "accept_encoding": "%({accept-encoding}i)s"}"#
        let arguments = [
            "--bind", "127.0.0.1:0", "--no-control-socket", "--worker-class", "gthread", "--workers", "1", "--threads", "16",
            // A worker busy past gunicorn's heartbeat timeout (30 s) is killed mid-response: on a
            // machine loaded as the tests allow, a large form can take that long.
            "--timeout", "300", "--graceful-timeout", "2", "--access-logfile", directory.appendingPathComponent("access.json").path,
            "--access-logformat", format, "--error-logfile", directory.appendingPathComponent("error.log").path,
            "httpbin:app",
        ]
        let process = try InteropProcess.launch(InteropComponent.gunicorn, arguments, in: directory)
        do {
            let listening = try await process.line(in: "error.log") { $0.contains("Listening at: http://127.0.0.1:") }
            guard let range = listening.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
                let port = Int(listening[range].dropFirst("127.0.0.1:".count))
            else { throw process.failure("named no port") }
            // The worker boots after the master listens; the first request waits for it either way.
            return HTTPBinServer(baseURL: try InteropTemplate.url("http://127.0.0.1:\(port)"), process: process)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// Every line of the access log so far.
    public var accessRecords: [AccessRecord] {
        process.records(AccessRecord.self, in: "access.json")
    }

    /// Waits for an access log line that matches.
    /// - Parameters:
    ///   - bound: The longest wait.
    ///   - matches: Which line.
    /// - Returns: The first matching line.
    /// - Throws: ``InteropRecordMissing`` with the log so far when none comes within `bound`.
    public func accessRecord(within bound: Duration = .seconds(30), where matches: (AccessRecord) -> Bool) async throws -> AccessRecord {
        try await InteropRecordMissing.wait(for: "httpbin access log line", within: bound, record: process.text(of: "access.json")) {
            accessRecords.first(where: matches)
        }
    }

    /// Stops gunicorn and its worker (SIGQUIT: at once, open connections or not), and deletes their files.
    public func stop() async { await process.stop(signal: SIGQUIT) }
}
