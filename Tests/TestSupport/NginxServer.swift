import Crypto
import Foundation
import ReferenceServer

/// Debian's nginx (`nginx-light`) on free ports of 127.0.0.1, configured from
/// `Tests/InteropTests/Servers/nginx.conf` and `nginx-locations.conf`.
///
/// Three listeners serve the same locations: ``httpURL`` (HTTP/1.1), ``httpsURL`` (TLS with HTTP/2
/// and HTTP/1.1 by ALPN, `ssl_verify_client optional`) and ``mutualTLSURL`` (`ssl_verify_client on`),
/// with a certificate from ``certificates``, made for this run. Three more TLS listeners offer
/// HTTP/2 and HTTP/1.1 by ALPN for the HTTP/2 checks: ``http2URL`` (with `/slow/NAME`, the files at
/// 64 KiB a second), ``fewStreamsURL`` (`http2_max_concurrent_streams 4`, with `/slow/NAME`) and
/// ``shortConnectionsURL`` (`keepalive_requests 10`: GOAWAY after 10 requests). The locations:
/// - `/NAME`: a file of ``documentRoot`` (ETag, Last-Modified, Range, If-Range; gzip for text and JSON);
/// - `/no-ranges/NAME`: the same with `max_ranges 0`;
/// - `/uploads/NAME`: a `PUT` stores its body in ``uploadsDirectory``;
/// - `/sink`: any method and body, read and answered with 204;
/// - `/secure/NAME?md5=…&expires=…`: the file behind `secure_link` (see ``secureLinkQuery(for:expires:)``);
/// - `/client-certificate`: JSON of what TLS saw of the client (`verify`, `subject`, `protocol`, `tls`).
///
/// ```swift
/// try await withInteropServer(try await NginxServer.start()) { nginx in
///     try nginx.writeFile("hello.txt", "hello")
///     // … GET nginx.httpURL/hello.txt …
///     let line = try await nginx.accessRecord { $0.uri == "/hello.txt" }
/// }
/// ```
public struct NginxServer: InteropServer {
    /// One line of the access log: what nginx received and answered, in its own words.
    public struct AccessRecord: Decodable, Sendable, Equatable {
        /// The request line, e.g. `GET /hello.txt HTTP/1.1`.
        public let request: String
        /// The method.
        public let method: String
        /// The target with its query.
        public let uri: String
        /// The status nginx sent.
        public let status: Int
        /// `HTTP/1.1` or `HTTP/2.0`.
        public let serverProtocol: String
        /// `TLSv1.3`, `TLSv1.2`, or empty over plain HTTP.
        public let sslProtocol: String
        /// `SUCCESS`, `NONE`, `FAILED:…`, or empty over plain HTTP.
        public let sslClientVerify: String
        /// The client certificate's subject, if one was presented.
        public let sslClientSubject: String
        /// The request's `Content-Length`, empty when it had none.
        public let contentLength: String
        /// The request's `Transfer-Encoding`, empty when it had none.
        public let transferEncoding: String
        /// The request's length in bytes: line, fields and body.
        public let requestLength: Int
        /// The request's `Range`.
        public let range: String
        /// The request's `If-Range`.
        public let ifRange: String
        /// The request's `If-None-Match`.
        public let ifNoneMatch: String
        /// The request's `If-Modified-Since`.
        public let ifModifiedSince: String
        /// The request's `Accept-Encoding`.
        public let acceptEncoding: String
        /// The body bytes nginx sent.
        public let bodyBytesSent: Int
        /// The listener's port.
        public let port: Int
        /// The connection's serial number: requests on one connection have the same.
        public let connection: Int
        /// How many requests the connection had carried, this one included.
        public let connectionRequests: Int

        enum CodingKeys: String, CodingKey {
            case request, method, uri, status, range, port, connection
            case connectionRequests = "connection_requests"
            case serverProtocol = "server_protocol"
            case sslProtocol = "ssl_protocol"
            case sslClientVerify = "ssl_client_verify"
            case sslClientSubject = "ssl_client_subject"
            case contentLength = "content_length"
            case transferEncoding = "transfer_encoding"
            case requestLength = "request_length"
            case ifRange = "if_range"
            case ifNoneMatch = "if_none_match"
            case ifModifiedSince = "if_modified_since"
            case acceptEncoding = "accept_encoding"
            case bodyBytesSent = "body_bytes_sent"
        }
    }

    /// The plain HTTP listener, `http://127.0.0.1:PORT`.
    public let httpURL: URL
    /// The TLS listener that asks for a client certificate and accepts none, `https://127.0.0.1:PORT`.
    public let httpsURL: URL
    /// The TLS listener that requires a client certificate from ``certificates``' root.
    public let mutualTLSURL: URL
    /// A TLS listener for the HTTP/2 checks, with `/slow/`.
    public let http2URL: URL
    /// A TLS listener that allows 4 concurrent HTTP/2 streams per connection, with `/slow/`.
    public let fewStreamsURL: URL
    /// A TLS listener that closes each connection after 10 requests (GOAWAY over HTTP/2).
    public let shortConnectionsURL: URL
    /// The test CA and the server's certificate: trust ``LoopbackCertificates/rootCertificatePEM``;
    /// ``LoopbackCertificates/clientCertificate(commonName:expired:)`` makes a client's.
    public let certificates: LoopbackCertificates
    /// The secret of `/secure/`'s links.
    public let secureLinkSecret: String
    /// The nginx process, its directory and logs.
    public let process: InteropProcess

    /// Where the static files are: what `/NAME` serves.
    public var documentRoot: URL { process.directory.appendingPathComponent("www") }
    /// Where `PUT /uploads/NAME` stores bodies.
    public var uploadsDirectory: URL { process.directory.appendingPathComponent("uploads") }

    /// Starts nginx.
    /// - Returns: The running server.
    /// - Throws: ``MissingInteropComponent`` when nginx is not installed; ``InteropProcess/StartFailure``
    ///   when it does not start (three tries, each with new ports).
    public static func start() async throws -> NginxServer {
        try InteropComponent.nginx.check()
        let certificates = try LoopbackCertificates(commonName: "Courier Interop nginx Root")
        var lastFailure: (any Error)?
        for _ in 0..<3 {
            let directory = try InteropProcess.makeDirectory("nginx")
            let ports = try await InteropProcess.freePorts(6)
            let secret = UUID().uuidString
            for folder in ["www", "uploads", "client_body", "proxy", "fastcgi", "uwsgi", "scgi"] {
                try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            try certificates.serverCertificatePEM.write(to: directory.appendingPathComponent("server.pem"), atomically: true, encoding: .utf8)
            try certificates.serverPrivateKeyPEM.write(to: directory.appendingPathComponent("server.key"), atomically: true, encoding: .utf8)
            try certificates.rootCertificatePEM.write(to: directory.appendingPathComponent("ca.pem"), atomically: true, encoding: .utf8)
            let values = [
                "DIRECTORY": directory.path,
                "USER": getuid() == 0 ? "user root;" : "",
                "HTTP_PORT": String(ports[0]),
                "HTTPS_PORT": String(ports[1]),
                "MTLS_PORT": String(ports[2]),
                "HTTP2_PORT": String(ports[3]),
                "FEW_STREAMS_PORT": String(ports[4]),
                "SHORT_CONNECTIONS_PORT": String(ports[5]),
                "SECURE_LINK_SECRET": secret,
            ]
            for file in ["nginx.conf", "nginx-locations.conf"] {
                try InteropTemplate.render(file, values, to: directory.appendingPathComponent(file))
            }
            let process = try InteropProcess.launch(
                InteropComponent.program("nginx"),
                ["-p", directory.path + "/", "-c", directory.appendingPathComponent("nginx.conf").path, "-g", "daemon off;"],
                in: directory
            )
            do {
                // nginx writes its pid file once it holds every port: a port that answers before
                // then may be another program's.
                _ = try await process.line(in: "nginx.pid") { !$0.isEmpty }
                try await process.waitUntilListening(on: ports)
                return NginxServer(
                    httpURL: try InteropTemplate.url("http://127.0.0.1:\(ports[0])"),
                    httpsURL: try InteropTemplate.url("https://127.0.0.1:\(ports[1])"),
                    mutualTLSURL: try InteropTemplate.url("https://127.0.0.1:\(ports[2])"),
                    http2URL: try InteropTemplate.url("https://127.0.0.1:\(ports[3])"),
                    fewStreamsURL: try InteropTemplate.url("https://127.0.0.1:\(ports[4])"),
                    shortConnectionsURL: try InteropTemplate.url("https://127.0.0.1:\(ports[5])"),
                    certificates: certificates,
                    secureLinkSecret: secret,
                    process: process
                )
            } catch {
                lastFailure = error
                await process.stop()
            }
        }
        throw lastFailure ?? InteropProcess.StartFailure(description: "nginx did not start")
    }

    /// Writes a file that `/name` (and `/no-ranges/name`, `/secure/name`) serves.
    /// - Parameters:
    ///   - name: The file's path under the document root.
    ///   - contents: Its bytes.
    /// - Returns: The file's URL on disk.
    /// - Throws: When it cannot be written.
    @discardableResult
    public func writeFile(_ name: String, _ contents: Data) throws -> URL {
        let file = documentRoot.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: file)
        return file
    }

    /// Writes a text file that `/name` serves.
    /// - Parameters:
    ///   - name: The file's path under the document root.
    ///   - text: Its text, UTF-8.
    /// - Returns: The file's URL on disk.
    /// - Throws: When it cannot be written.
    @discardableResult
    public func writeFile(_ name: String, _ text: String) throws -> URL {
        try writeFile(name, Data(text.utf8))
    }

    /// The query of a `/secure/` link to `path` valid until `expires`: `md5` and `expires`, as
    /// `secure_link_md5 "$secure_link_expires$uri SECRET"` checks them.
    /// - Parameters:
    ///   - path: The path, e.g. `/secure/hello.txt`.
    ///   - expires: When the link expires.
    /// - Returns: The two query parameters' values.
    public func secureLinkQuery(for path: String, expires: Date) -> (md5: String, expires: String) {
        let seconds = String(Int(expires.timeIntervalSince1970))
        let digest = Insecure.MD5.hash(data: Data("\(seconds)\(path) \(secureLinkSecret)".utf8))
        let base64 = Data(digest).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return (base64, seconds)
    }

    /// Every line of the access log so far.
    public var accessRecords: [AccessRecord] {
        process.records(AccessRecord.self, in: "access.json")
    }

    /// Waits for an access log line that matches (nginx writes it when the response is done).
    /// - Parameters:
    ///   - bound: The longest wait.
    ///   - matches: Which line.
    /// - Returns: The first matching line.
    /// - Throws: `InteropRecordMissing` with the log so far when none comes within `bound`.
    public func accessRecord(within bound: Duration = .seconds(30), where matches: (AccessRecord) -> Bool) async throws -> AccessRecord {
        try await InteropRecordMissing.wait(for: "nginx access log line", within: bound, record: process.text(of: "access.json")) {
            accessRecords.first(where: matches)
        }
    }

    /// nginx's error log so far.
    public var errorLog: String { process.text(of: "error.log") }

    /// Stops nginx and deletes its files.
    public func stop() async { await process.stop() }
}
