// HTTP/2 is negotiated by ALPN over TLS: the AsyncHTTPClient transport offers it, URLSession on
// Linux does not. The same checks against the reference server are in HTTP2Tests.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("Against nginx over HTTP/2: streams in flight, stream limits, GOAWAY and transfers, as nginx's access log records them", .requires(.nginx))
struct HTTP2InteropTests {
    /// One JSON Lines record.
    struct Line: Decodable, Sendable {
        let id: Int
    }

    /// Runs `body` with a client of nginx's listener at `url` over a transport of its own that
    /// trusts nginx's root, after one call (`/warm-up.txt`, answered over HTTP/2) has opened the
    /// connection later calls share.
    static func withClient<T>(
        _ nginx: NginxServer,
        _ url: URL,
        configure: (inout Configuration) -> Void = { _ in },
        _ body: (Client) async throws -> T
    ) async throws -> T {
        let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [nginx.certificates.rootCertificatePEM]))
        return try await withShutdown(transport) {
            try nginx.writeFile("warm-up.txt", "warm")
            let client = Client(baseURL: BaseURL(url), transport: transport, configure: configure)
            let warmUp = try await client.response(for: Request<Data>(.get, "warm-up.txt"))
            #expect(warmUp.httpVersion == .http2)
            return try await body(client)
        }
    }

    /// Waits until nginx has logged `count` requests whose URI starts with `prefix`, and returns them.
    static func records(_ nginx: NginxServer, _ prefix: String, count: Int) async throws -> [NginxServer.AccessRecord] {
        try await InteropRecordMissing.wait(for: "\(count) requests to \(prefix)", within: .seconds(30), record: nginx.errorLog) {
            let records = nginx.accessRecords.filter { $0.uri.hasPrefix(prefix) }
            return records.count >= count ? records : nil
        }
    }

    @Test("cancelling one stream among four in flight on one HTTP/2 connection fails only that call; the others arrive whole")
    func cancelOne() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let size = 192 * 1024
            // The cancelled call's file takes a minute at nginx's 64 KiB a second: it cannot be
            // whole when the cancellation comes, however slow the machine.
            let cancelledSize = 4 * 1024 * 1024
            try nginx.writeFile("slow.bin", FilePattern.data(count: size))
            try nginx.writeFile("slow-long.bin", FilePattern.data(count: cancelledSize))
            try await Self.withClient(nginx, nginx.http2URL) { client in
                let heads = AsyncStream.makeStream(of: Void.self)
                let calls = (0..<4).map { index in
                    Task {
                        let stream: ResponseStream
                        do {
                            stream = try await client.stream(Request<Data>(.get, index == 0 ? "slow/slow-long.bin" : "slow/slow.bin", query: ["call": index]))
                        } catch {
                            heads.continuation.yield()
                            throw error
                        }
                        heads.continuation.yield()
                        #expect(stream.httpVersion == .http2)
                        var bytes = 0
                        for try await chunk in stream { bytes += chunk.count }
                        return bytes
                    }
                }
                // nginx sends 64 KiB a second: with every head in, every body is still under way.
                var arrived = 0
                for await _ in heads.stream {
                    arrived += 1
                    if arrived == 4 { break }
                }
                calls[0].cancel()
                #expect(await capture { try await calls[0].value }.error?.kind == .cancelled)
                for call in calls.dropFirst() {
                    #expect(try await call.value == size)
                }
                let records = try await Self.records(nginx, "/slow/slow", count: 4)
                let cancelled = try #require(records.first { $0.uri.hasSuffix("call=0") })
                #expect(cancelled.bodyBytesSent < cancelledSize)
                #expect(records.filter { $0.bodyBytesSent == size }.count == 3)
                let warmUp = try await nginx.accessRecord { $0.uri == "/warm-up.txt" }
                #expect((records + [warmUp]).allSatisfy { $0.serverProtocol == "HTTP/2.0" && $0.connection == warmUp.connection })
            }
        }
    }

    @Test("100 distinct and 100 identical concurrent GETs share one HTTP/2 connection; nginx sees the identical ones once")
    func manyStreams() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("hello.txt", "hello over h2")
            let contents = FilePattern.data(count: 192 * 1024)
            try nginx.writeFile("identical.bin", contents)
            try await Self.withClient(nginx, nginx.http2URL) { client in
                let distinct = try await withThrowingTaskGroup(of: Data.self) { group in
                    for index in 0..<100 {
                        group.addTask { try await client.send(Request<Data>(.get, "hello.txt", query: ["n": index])) }
                    }
                    return try await group.reduce(into: [Data]()) { $0.append($1) }
                }
                #expect(distinct.count == 100)
                #expect(distinct.allSatisfy { $0 == Data("hello over h2".utf8) })
                // Two seconds at 64 KiB a second: every identical call joins the first.
                let identical = try await withThrowingTaskGroup(of: Data.self) { group in
                    for _ in 0..<100 {
                        group.addTask { try await client.send(Request<Data>(.get, "slow/identical.bin")) }
                    }
                    return try await group.reduce(into: [Data]()) { $0.append($1) }
                }
                #expect(identical.count == 100)
                #expect(identical.allSatisfy { $0 == contents })
                let hello = try await Self.records(nginx, "/hello.txt?n=", count: 100)
                #expect(Set(hello.map(\.uri)).count == 100)
                let slow = try await Self.records(nginx, "/slow/identical.bin", count: 1)
                #expect(slow.count == 1)
                let warmUp = try await nginx.accessRecord { $0.uri == "/warm-up.txt" }
                #expect((hello + slow).allSatisfy { $0.serverProtocol == "HTTP/2.0" && $0.connection == warmUp.connection })
            }
        }
    }

    // Without maximumCallsPerHost, AsyncHTTPClient queues the calls beyond the server's streams
    // itself, and fails any that waits longer than its connect timeout (5 s) for a stream with
    // getConnectionFromPoolTimeout; with it, they wait in the client's line, within their own timeouts.
    @Test("with http2_max_concurrent_streams 4 and maximumCallsPerHost 4, 50 calls at once all succeed over one HTTP/2 connection")
    func fewStreams() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            // nginx sends the first 64 KiB at once, the rest at 64 KiB a second: each stream stays open.
            let contents = FilePattern.data(count: 80 * 1024)
            try nginx.writeFile("few.bin", contents)
            try await Self.withClient(nginx, nginx.fewStreamsURL, configure: { $0.maximumCallsPerHost = 4 }) { client in
                let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                    for index in 0..<50 {
                        group.addTask { try await client.send(Request<Data>(.get, "slow/few.bin", query: ["n": index])) }
                    }
                    return try await group.reduce(into: [Data]()) { $0.append($1) }
                }
                #expect(bodies.count == 50)
                #expect(bodies.allSatisfy { $0 == contents })
                let records = try await Self.records(nginx, "/slow/few.bin", count: 50)
                #expect(records.count == 50)
                #expect(records.allSatisfy { $0.serverProtocol == "HTTP/2.0" && $0.status == 200 })
                let warmUp = try await nginx.accessRecord { $0.uri == "/warm-up.txt" }
                #expect(records.allSatisfy { $0.connection == warmUp.connection }, "queued for the one connection, not spread")
                #expect(!nginx.errorLog.contains("concurrent streams exceeded"), "\(nginx.errorLog)")
            }
        }
    }

    // NIOHTTP2 closes the streams above a received GOAWAY's last stream ID with CANCEL; the
    // transport sends such an idempotent request once more, on a new connection. nginx ends that
    // one after 10 requests too, so of 100 at once some fail the second time, clearly.
    @Test("GOAWAY after 10 requests per connection: GETs past the GOAWAY go once more on a new connection, none reaches nginx twice, the rest fail as notConnected")
    func goAwayGets() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("hello.txt", "hello over h2")
            try await Self.withClient(nginx, nginx.shortConnectionsURL) { client in
                let outcomes = await withTaskGroup(of: Result<Data, CourierError>.self) { group in
                    for index in 0..<100 {
                        group.addTask { await capture { try await client.send(Request<Data>(.get, "hello.txt", query: ["n": index])) } }
                    }
                    return await group.reduce(into: [Result<Data, CourierError>]()) { $0.append($1) }
                }
                let failures = outcomes.compactMap(\.error)
                #expect(failures.allSatisfy { $0.kind == .notConnected && $0.message?.contains("GOAWAY") == true }, "\(failures.prefix(3))")
                let after = try await client.send(Request<Data>(.get, "hello.txt", query: ["n": "after"]))
                #expect(after == Data("hello over h2".utf8))
                let records = try await Self.records(nginx, "/hello.txt?n=", count: 100 - failures.count + 1)
                #expect(Dictionary(grouping: records, by: \.uri).values.allSatisfy { $0.count == 1 })
                #expect(records.allSatisfy { $0.serverProtocol == "HTTP/2.0" && $0.connectionRequests <= 10 })
                let warmUp = try await nginx.accessRecord { $0.uri == "/warm-up.txt" }
                let calls = records.filter { $0.uri != "/hello.txt?n=after" }
                #expect(calls.contains { $0.connection != warmUp.connection }, "streams past the GOAWAY answered on a new connection")
                let last = try #require(records.first { $0.uri == "/hello.txt?n=after" })
                #expect(last.connection != warmUp.connection, "the connection nginx ended is not used again")
            }
        }
    }

    @Test("GOAWAY after 10 requests per connection: of 100 concurrent POSTs none reaches nginx twice; those past the GOAWAY fail as notConnected, not sent again")
    func goAwayPosts() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await Self.withClient(nginx, nginx.shortConnectionsURL) { client in
                let outcomes = await withTaskGroup(of: (Int, Result<Void, CourierError>).self) { group in
                    for index in 0..<100 {
                        group.addTask {
                            let request = Request<Void>(.post, "sink", query: ["id": index], body: .data(Data("post \(index)".utf8)))
                            return (index, await capture { try await client.send(request) })
                        }
                    }
                    return await group.reduce(into: [Int: Result<Void, CourierError>]()) { $0[$1.0] = $1.1 }
                }
                let succeeded = outcomes.filter { $0.value.error == nil }.map(\.key)
                let failures = outcomes.compactMap(\.value.error)
                // Every POST that succeeded is in the log; then count each id's lines.
                let records = try await Self.records(nginx, "/sink?id=", count: succeeded.count)
                let lines = Dictionary(grouping: records, by: \.uri).mapValues(\.count)
                #expect(lines.values.allSatisfy { $0 == 1 }, "\(lines.filter { $0.value > 1 })")
                for index in succeeded { #expect(lines["/sink?id=\(index)"] == 1) }
                #expect(records.allSatisfy { $0.serverProtocol == "HTTP/2.0" && $0.method == "POST" && $0.connectionRequests <= 10 })
                // Not sent again: nothing tells a stream nginx never read from one it was processing.
                #expect(failures.allSatisfy { $0.kind == .notConnected && $0.message?.contains("not idempotent") == true }, "\(failures.prefix(3))")
            }
        }
    }

    @Test("a JSON Lines file read to the end, a download cancelled and resumed with Range, and a file upload, over HTTP/2")
    func transfers() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let lines = (1...5000).map { "{\"id\":\($0)}\n" }.joined()
            try nginx.writeFile("export.jsonl", lines)
            let large = FilePattern.data(count: 16 * 1024 * 1024)
            try nginx.writeFile("large.bin", large)
            try await Self.withClient(nginx, nginx.http2URL) { client in
                var ids: [Int] = []
                for try await line in client.lines(Request<Line>(.get, "export.jsonl")) { ids.append(line.id) }
                #expect(ids == Array(1...5000))

                try await withTemporaryDirectory { directory in
                    let destination = directory.appendingPathComponent("large.bin")
                    #expect(await downloadCancelled(client, Request<Data>(.get, "large.bin"), to: destination).error?.kind == .cancelled)
                    let saved = try #require(DownloadRecord.existing(for: destination))
                    _ = try await client.resumableDownload(Request<Data>(.get, "large.bin"), to: destination)
                    #expect(try Data(contentsOf: destination) == large)
                    let resumed = try await nginx.accessRecord { $0.uri == "/large.bin" && !$0.range.isEmpty }
                    #expect(resumed.range == "bytes=\(saved.bytesWritten)-")

                    let upload = directory.appendingPathComponent("upload.bin")
                    try PatternFile.write(1024 * 1024 + 3, to: upload)
                    try await client.send(Request<Void>(.put, "uploads/upload.bin", body: .file(upload)))
                    #expect(try Data(contentsOf: nginx.uploadsDirectory.appendingPathComponent("upload.bin")) == Data(contentsOf: upload))
                }
                let stored = try await nginx.accessRecord { $0.uri == "/uploads/upload.bin" }
                #expect(stored.status == 201)
                #expect(stored.contentLength == String(1024 * 1024 + 3))
                let records = nginx.accessRecords.filter { ["/export.jsonl", "/large.bin", "/uploads/upload.bin"].contains($0.uri) }
                #expect(records.count == 4)
                #expect(records.allSatisfy { $0.serverProtocol == "HTTP/2.0" })
            }
        }
    }
}
#endif
