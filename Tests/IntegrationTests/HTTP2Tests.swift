// HTTP/2 is negotiated by ALPN over TLS: the AsyncHTTPClient transport offers it, URLSession on
// Linux does not. The same checks against nginx are in HTTP2InteropTests.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("HTTP/2 over the AsyncHTTPClient transport, against the reference server's h2 listener")
struct HTTP2Tests {
    /// One JSON Lines record of `/export/lines`.
    struct Line: Decodable, Sendable {
        let id: Int
        let title: String
    }

    /// Runs `body` with a client of a reference server whose TLS listeners offer h2 and
    /// http/1.1, over a transport of its own that trusts the server's root, after one call
    /// (answered over HTTP/2) has opened the connection every later call shares.
    static func withHTTP2Client<T>(
        configure: (inout Configuration) -> Void = { _ in },
        _ body: (Client, ReferenceServer) async throws -> T
    ) async throws -> T {
        let certificates = try LoopbackCertificates()
        var options = ReferenceServer.Options()
        options.tls = certificates
        options.offersHTTP2 = true
        let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM]))
        return try await withShutdown(transport) {
            try await withBackends(options: options) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: transport, configure: configure)
                let warmUp = try await client.response(for: Request<Echo>(.get, "echo/warm-up"))
                #expect(warmUp.httpVersion == .http2)
                return try await body(client, backends.server)
            }
        }
    }

    /// The server's records of requests whose target starts with `prefix`.
    static func records(_ server: ReferenceServer, _ prefix: String) -> [RequestRecord] {
        server.requestRecords.filter { $0.target.hasPrefix(prefix) }
    }

    @Test("cancelling one call among six on one HTTP/2 connection fails only that call; the others finish, the connection stays")
    func cancelOne() async throws {
        try await Self.withHTTP2Client { client, server in
            let others = (0..<5).map { index in
                Task { try await client.send(Request<Echo>(.get, "echo/h2-other-\(index)", query: ["_fault": "delay=2000"])) }
            }
            let victim = Task { try await client.send(Request<Echo>(.get, "echo/h2-victim", query: ["_fault": "delay=60000"])) }
            // Cancelled once the server holds all six: every one is in flight.
            #expect(await eventually { Self.records(server, "/echo/h2-").count == 6 })
            victim.cancel()
            #expect(await capture { try await victim.value }.error?.kind == .cancelled)
            for (index, other) in others.enumerated() {
                #expect(try await other.value.path == "/echo/h2-other-\(index)")
            }
            _ = try await client.send(Request<Echo>(.get, "echo/h2-after"))
            let records = server.requestRecords
            #expect(records.count == 8)
            #expect(records.allSatisfy { $0.httpVersion == "HTTP/2.0" })
            #expect(Set(records.map(\.connection)).count == 1, "the cancelled stream was reset, its connection kept")
        }
    }

    @Test("100 distinct and 100 identical concurrent GETs share one HTTP/2 connection; the identical ones reach the server once")
    func manyStreams() async throws {
        try await Self.withHTTP2Client { client, server in
            let distinct = try await withThrowingTaskGroup(of: Echo.self) { group in
                for index in 0..<100 {
                    group.addTask { try await client.send(Request<Echo>(.get, "echo/distinct-\(index)")) }
                }
                return try await group.reduce(into: [Echo]()) { $0.append($1) }
            }
            #expect(Set(distinct.map(\.path)) == Set((0..<100).map { "/echo/distinct-\($0)" }))
            let identical = try await withThrowingTaskGroup(of: Echo.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await client.send(Request<Echo>(.get, "echo/identical", query: ["_fault": "delay=3000"])) }
                }
                return try await group.reduce(into: [Echo]()) { $0.append($1) }
            }
            #expect(identical.count == 100)
            #expect(identical.allSatisfy { $0.path == "/echo/identical" })
            #expect(Self.records(server, "/echo/identical").count == 1)
            let records = server.requestRecords
            #expect(records.count == 102)
            #expect(records.allSatisfy { $0.httpVersion == "HTTP/2.0" })
            #expect(Set(records.map(\.connection)).count == 1)
        }
    }

    // As Transports says: with maximumCallsPerHost at the server's stream limit, the calls past it
    // wait in Courier's line, within their own timeouts, not in AsyncHTTPClient's queue, whose
    // wait is bounded by the connect timeout (5 s) and runs out on a busy machine.
    @Test("150 calls at once, past the server's 100 concurrent streams, all succeed over HTTP/2 with maximumCallsPerHost at the limit")
    func pastTheStreamLimit() async throws {
        let limited: (inout Configuration) -> Void = { $0.maximumCallsPerHost = 100 }
        try await Self.withHTTP2Client(configure: limited) { client, server in
            let paths = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<150 {
                    group.addTask {
                        try await client.send(Request<Echo>(.get, "echo/crowd-\(index)", query: ["_fault": "delay=500"])).path
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(paths.count == 150)
            let records = Self.records(server, "/echo/crowd-")
            #expect(records.count == 150)
            #expect(records.allSatisfy { $0.httpVersion == "HTTP/2.0" })
        }
    }

    @Test("a JSON Lines stream read to the end, a download cut and resumed with Range, and a file upload, over HTTP/2")
    func transfers() async throws {
        try await Self.withHTTP2Client { client, server in
            var ids: [Int] = []
            for try await line in client.lines(Request<Line>(.get, "export/lines", query: ["count": 5000])) {
                ids.append(line.id)
            }
            #expect(ids == Array(1...5000))

            try await withTemporaryDirectory { directory in
                let size = 1_500_007
                let destination = directory.appendingPathComponent("cut.bin")
                let request = Request<Data>(.get, "ranged/\(size)", query: ["cut": 700_001])
                // The server resets the response's stream at the cut: the first call fails there.
                await #expect(throws: CourierError.self) { try await client.resumableDownload(request, to: destination) }
                let saved = try #require(DownloadRecord.existing(for: destination))
                #expect(saved.bytesWritten > 0)
                let file = try await client.resumableDownload(request, to: destination)
                #expect(file.byteCount == Int64(size))
                #expect(try Data(contentsOf: destination) == FilePattern.data(count: size))

                let upload = directory.appendingPathComponent("upload.bin")
                try PatternFile.write(1024 * 1024 + 3, to: upload)
                let echo = try await client.send(Request<Echo>(.put, "echo/upload", body: .file(upload)))
                #expect(echo.body_size == 1024 * 1024 + 3)
            }
            let records = server.requestRecords
            #expect(Self.records(server, "/ranged/").count == 2)
            #expect(Self.records(server, "/export/lines").count == 1)
            #expect(Self.records(server, "/echo/upload").first?.method == "PUT")
            #expect(records.allSatisfy { $0.httpVersion == "HTTP/2.0" })
        }
    }

    @Test("the reference server's TLS listener without offersHTTP2 stays HTTP/1.1 for the same transport")
    func http1WithoutTheOption() async throws {
        let certificates = try LoopbackCertificates()
        var options = ReferenceServer.Options()
        options.tls = certificates
        let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM]))
        let records = try await withBackends(options: options) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: transport)
            let response = try await client.response(for: Request<Echo>(.get, "echo/one"))
            #expect(response.httpVersion == .http1_1)
            return backends.server.requestRecords
        }
        try await transport.shutdown()
        #expect(records.map(\.httpVersion) == ["HTTP/1.1"])
    }
}
#endif
