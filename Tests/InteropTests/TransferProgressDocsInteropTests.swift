import Courier
import Foundation
import TestSupport
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// Checks of "Large transfers", "Files, streams and progress" and "Connections" (Proxies), written
/// from the articles alone: progress against the bytes nginx stores and serves, proxies refused
/// when a transport is created, and a SOCKS5 proxy's reply as dante gives it.
@Suite("Progress of file transfers through nginx, and proxies refused or failing, as the articles describe them", .requires(.nginx, .dante))
struct TransferProgressDocsInteropTests {
    @Test(
        "a file from disk goes up and comes down: progress only grows and ends at the file's size when the call returns; nginx stores and serves the exact bytes, each request once",
        arguments: TransportKind.allCases
    )
    func uploadAndDownloadWithProgress(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await withTemporaryDirectory { directory in
                let size = (5 << 20) + 13
                let source = directory.appendingPathComponent("episode.mp4")
                try PatternFile.write(size, to: source)
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())

                let upload = ProgressLog()
                let sent = await capture {
                    try await client.send(Request<Void>(.put, "uploads/episode.mp4", body: .file(source, contentType: "video/mp4"))) { upload.record($0) }
                }
                let uploadsAtReturn = upload.all.filter { $0.direction == .upload }
                #expect(sent.error == nil)
                #expect(uploadsAtReturn.last?.completedBytes == Int64(size))
                #expect(uploadsAtReturn.last?.totalBytes == Int64(size))
                #expect(zip(uploadsAtReturn, uploadsAtReturn.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
                #expect(try Data(contentsOf: nginx.uploadsDirectory.appendingPathComponent("episode.mp4")) == Data(contentsOf: source))

                try nginx.writeFile("episode-12.mp4", try Data(contentsOf: source))
                let destination = directory.appendingPathComponent("downloaded.mp4")
                let download = ProgressLog()
                let received = await capture {
                    try await client.download(Request<Data>(.get, "episode-12.mp4"), to: destination) { download.record($0) }
                }
                let downloadsAtReturn = download.downloads
                #expect(received.error == nil)
                #expect(downloadsAtReturn.last?.completedBytes == Int64(size))
                #expect(downloadsAtReturn.last?.totalBytes == Int64(size))
                #expect(zip(downloadsAtReturn, downloadsAtReturn.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
                #expect(try Data(contentsOf: destination) == Data(contentsOf: source))

                let stored = try await nginx.accessRecord { $0.uri == "/uploads/episode.mp4" }
                #expect(stored.status == 201)
                let served = try await nginx.accessRecord { $0.uri == "/episode-12.mp4" }
                #expect(served.status == 200)
                #expect(served.bodyBytesSent == size)
                #expect(nginx.accessRecords.filter { $0.uri == "/uploads/episode.mp4" }.count == 1)
                #expect(nginx.accessRecords.filter { $0.uri == "/episode-12.mp4" }.count == 1)
            }
        }
    }

    @Test(
        "TransferProgressUpdates over an upload and a download from disk: the sequence ends when the call returns, its fractions only grow and end at 1",
        arguments: TransportKind.allCases
    )
    func progressAsSequence(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await withTemporaryDirectory { directory in
                let size = (3 << 20) + 5
                let source = directory.appendingPathComponent("recording.mp4")
                try PatternFile.write(size, to: source)
                try nginx.writeFile("recording.mp4", try Data(contentsOf: source))
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())

                let uploadUpdates = TransferProgressUpdates()
                let uploadReader = Task { await Self.fractions(of: uploadUpdates) }
                let sent = await capture {
                    try await uploadUpdates.reporting { progress in
                        try await client.send(Request<Void>(.put, "uploads/recording.mp4", body: .file(source)), progress: progress)
                    }
                }
                let uploadFractions = await uploadReader.value
                #expect(sent.error == nil)
                #expect(uploadFractions.last == 1)
                #expect(zip(uploadFractions, uploadFractions.dropFirst()).allSatisfy { $0 <= $1 })

                let destination = directory.appendingPathComponent("recording-copy.mp4")
                let downloadUpdates = TransferProgressUpdates()
                let downloadReader = Task { await Self.fractions(of: downloadUpdates) }
                let received = await capture {
                    try await downloadUpdates.reporting { progress in
                        try await client.download(Request<Data>(.get, "recording.mp4"), to: destination, progress: progress)
                    }
                }
                let downloadFractions = await downloadReader.value
                #expect(received.error == nil)
                #expect(downloadFractions.last == 1)
                #expect(zip(downloadFractions, downloadFractions.dropFirst()).allSatisfy { $0 <= $1 })

                #expect(try Data(contentsOf: nginx.uploadsDirectory.appendingPathComponent("recording.mp4")) == Data(contentsOf: source))
                #expect(try Data(contentsOf: destination) == Data(contentsOf: source))
                _ = try await nginx.accessRecord { $0.uri == "/recording.mp4" }
                #expect(nginx.accessRecords.filter { $0.uri == "/uploads/recording.mp4" }.count == 1)
                #expect(nginx.accessRecords.filter { $0.uri == "/recording.mp4" }.count == 1)
            }
        }
    }

    @Test("both transports refuse, when they are created, a proxy without a host or with a port outside 1...65535, naming what is wrong")
    func malformedProxyRefusedAtCreation() async throws {
        let malformed: [(proxy: Proxy, missing: String)] = [
            (.http(host: "", port: 3128), "host"),
            (.socks5(host: "", port: 1080), "host"),
            (.http(host: "127.0.0.1", port: 0), "port"),
            (.socks5(host: "127.0.0.1", port: 0), "port"),
            (.http(host: "127.0.0.1", port: 70000), "port"),
            (.socks5(host: "127.0.0.1", port: 65536), "port"),
            (.http(host: "127.0.0.1", port: -1), "port"),
        ]
        for (proxy, missing) in malformed {
            let session = #expect(throws: CourierError.self, "\(proxy)") { try SessionTransport(clientIdentity: nil, proxy: proxy) }
            #expect(session?.kind == .invalidRequest, "\(proxy)")
            #if os(Linux)
            // On Linux the URLSession transport refuses any proxy, naming the AsyncHTTPClient transport.
            let sessionMessage = session?.message ?? ""
            #expect(sessionMessage.localizedCaseInsensitiveContains(missing) || sessionMessage.contains("AsyncHTTPClient"), "\(proxy): \(sessionMessage)")
            #else
            #expect(session?.message?.localizedCaseInsensitiveContains(missing) == true, "\(proxy): \(session?.message ?? "no message")")
            #endif
            #if AsyncHTTPClient
            let client = #expect(throws: CourierError.self, "\(proxy)") { try HTTPClientTransport(trust: ServerTrust(), proxy: proxy) }
            #expect(client?.kind == .invalidRequest, "\(proxy)")
            #expect(client?.message?.localizedCaseInsensitiveContains(missing) == true, "\(proxy): \(client?.message ?? "no message")")
            #endif
        }
        #if AsyncHTTPClient
        // The range's ends are inside it.
        for proxy in [Proxy.http(host: "127.0.0.1", port: 1), .socks5(host: "127.0.0.1", port: 65535)] {
            let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: proxy)
            try await transport.shutdown()
        }
        #endif
    }

    #if AsyncHTTPClient
    @Test("a SOCKS5 proxy that cannot reach the server (a ruleset block, a refused port): notConnected with the proxy's reply, one message per reply")
    func socksProxyCannotReach() async throws {
        try await withInteropServer(try await DanteProxy.start()) { dante in
            let closedPort = try await InteropProcess.freePorts(1)[0]
            // RFC 1928's replies: 2 "connection not allowed by ruleset" (danted.conf passes loopback
            // destinations only; 192.0.2.1 is TEST-NET-1), 5 "connection refused" (nothing listens).
            let cases: [(origin: String, address: String, port: Int, reply: Int, meaning: String)] = [
                ("http://192.0.2.1:8080", "192.0.2.1", 8080, 2, "connection not allowed by ruleset"),
                ("http://127.0.0.1:\(closedPort)", "127.0.0.1", closedPort, 5, "connection refused"),
            ]
            var messages: [String] = []
            for (origin, address, port, reply, meaning) in cases {
                let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: .socks5(host: "127.0.0.1", port: dante.port))
                let client = Client(baseURL: BaseURL(try InteropTemplate.url(origin)), transport: transport) { $0.timeout = .seconds(20) }
                let refused = await capture { try await client.send(Request<Data>(.get, "unreachable")) }
                try await transport.shutdown()
                let error = try #require(refused.error)
                let message = error.message ?? ""
                #expect(error.kind == .notConnected, "\(origin): \(error)")
                // The article says "with the proxy's reply" and no more: its meaning or its number.
                let numbers = message.replacingOccurrences(of: address, with: " ").replacingOccurrences(of: String(port), with: " ")
                    .split { !$0.isNumber }
                #expect(message.localizedCaseInsensitiveContains(meaning) || numbers.contains(Substring(String(reply))), "\(origin): \(message)")
                messages.append(message)
            }
            #expect(Set(messages).count == cases.count, "\(messages)")
            _ = try await InteropRecordMissing.wait(for: "danted block of 192.0.2.1", within: .seconds(30), record: dante.log) {
                dante.log.split(separator: "\n").first { $0.contains("block") && $0.contains("192.0.2.1") }
            }
        }
    }
    #endif

    /// Every fraction a progress sequence delivers until it ends.
    private static func fractions(of updates: TransferProgressUpdates) async -> [Double] {
        var fractions: [Double] = []
        for await update in updates {
            if let fraction = update.fractionCompleted { fractions.append(fraction) }
        }
        return fractions
    }
}
