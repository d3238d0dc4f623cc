import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against nginx: downloads and resumed downloads as Large transfers describes them, as nginx's access log records them", .requires(.nginx))
struct DownloadInteropTests {
    /// Large enough that a cancellation after the first progress lands before the end on any machine.
    static let size = 64 << 20

    /// 64 KiB blocks, each numbered in its first two bytes, so a piece out of place shows.
    static func contents() -> Data {
        var block = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0) })
        var data = Data(capacity: size)
        for index in 0..<(size / block.count) {
            block[0] = UInt8(truncatingIfNeeded: index >> 8)
            block[1] = UInt8(truncatingIfNeeded: index)
            data.append(block)
        }
        return data
    }

    @Test("a download writes the whole file, and nginx records one GET sending every byte", arguments: TransportKind.allCases)
    func download(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
            try nginx.writeFile("plain.bin", contents)
            try await withTemporaryDirectory { directory in
                let destination = directory.appendingPathComponent("plain.bin")
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
                _ = try await client.download(Request<Data>(.get, "plain.bin"), to: destination)
                #expect(try Data(contentsOf: destination) == contents)
                let record = try await nginx.accessRecord { $0.uri == "/plain.bin" }
                #expect(record.status == 200)
                #expect(record.bodyBytesSent == contents.count)
            }
        }
    }

    // AsyncHTTPClient only: URLSession on Linux reads the whole 64 MiB ahead of its reader, so a
    // cancellation on the first progress report often lands after the download has finished, and
    // there is nothing to resume. URLSession's resumption is checked against the reference server,
    // which cuts the connection on cue (ResumableDownloadTests).
    @Test(
        "a cancelled resumable download resumes with Range, If-Range and identity; nginx answers 206 with the rest, or 416 when all was saved",
        arguments: [TransportKind.asyncHTTPClient]
    )
    func resumed(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let contents = Self.contents()
            try nginx.writeFile("large.bin", contents)
            try await withTemporaryDirectory { directory in
                let destination = directory.appendingPathComponent("large.bin")
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
                #expect(await downloadCancelled(client, Request<Data>(.get, "large.bin"), to: destination).error?.kind == .cancelled)
                let saved = try #require(DownloadRecord.existing(for: destination))
                #expect(saved.bytesWritten > 0)
                #expect(saved.totalBytes.map { Int64($0) } == Int64(contents.count))

                _ = try await client.resumableDownload(Request<Data>(.get, "large.bin"), to: destination)
                #expect(try Data(contentsOf: destination) == contents)
                #expect(DownloadRecord.existing(for: destination) == nil)
                let resumed = try await nginx.accessRecord { $0.uri == "/large.bin" && !$0.range.isEmpty }
                #expect(resumed.range == "bytes=\(saved.bytesWritten)-")
                #expect(!resumed.ifRange.isEmpty)
                #expect(resumed.acceptEncoding == "identity")
                if Int64(saved.bytesWritten) < Int64(contents.count) {
                    #expect(resumed.status == 206)
                    #expect(Int64(resumed.bodyBytesSent) == Int64(contents.count) - Int64(saved.bytesWritten))
                } else {
                    // The cancellation landed after every byte was saved (URLSession on Linux reads ahead
                    // of its reader): a 416, and the saved bytes checked against the recorded length finish the file.
                    #expect(resumed.status == 416)
                }
                #expect(nginx.accessRecords.filter { $0.uri == "/large.bin" }.count == 2)
            }
        }
    }
}
