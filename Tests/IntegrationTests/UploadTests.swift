import Courier
import Foundation
import ReferenceServer
import TestSupport
import Testing

// Alone (`.heavyLoad`): gigabyte files written, sent and checksummed.
@Suite("Multipart forms stream from disk, in constant memory, and never send a lying body", .heavyLoad)
struct UploadTests {
    struct Receipt: Decodable, Sendable {
        struct Part: Decodable, Sendable, Equatable {
            var name: String?
            var filename: String?
            var content_type: String?
            var size: Int
            var checksum: UInt64
            var text: String?
        }
        var parts: [Part]
    }

    struct Received: Decodable, Sendable {
        var complete: Int
    }

    /// A client of `server` whose requests pass `change` on their way: after the request is built
    /// (its files' sizes read) and before the transport reads its body.
    static func client(_ backends: ReferenceBackends, change: @escaping @Sendable () throws -> Void) -> Client {
        var configuration = Configuration(baseURL: BaseURL(backends.server.baseURL))
        configuration.middleware = [RunningFirst { _ in try change() }]
        return Client(configuration: configuration, transport: backends.transport)
    }

    /// What `/forms` answers for text field `text` named `name`.
    static func textPart(_ name: String, _ text: String) -> Receipt.Part {
        var checksum = FilePattern.Checksum()
        Data(text.utf8).withUnsafeBytes { checksum.add($0) }
        return Receipt.Part(name: name, filename: nil, content_type: nil, size: text.utf8.count, checksum: checksum.value, text: text)
    }

    @Test("file parts from disk and fields in memory arrive byte for byte, their length known before they are sent", arguments: TransportKind.allCases)
    func mixedForm(transport: TransportKind) async throws {
        try await withTemporaryDirectory { directory in
            let (video, photo) = (directory.appendingPathComponent("day3.mp4"), directory.appendingPathComponent("cover.jpg"))
            try PatternFile.write(3 * 1024 * 1024 + 7, to: video)
            try PatternFile.write(1000, to: photo)
            var form = MultipartFormData()
            form.append("Holiday, day 3", named: "caption")
            form.appendFile(at: video, named: "video", contentType: "video/mp4")
            form.append(Data([1, 2, 3]), named: "thumbnail", filename: "t.bin")
            form.appendFile(at: photo, named: "cover", filename: "front.jpg", contentType: "image/jpeg")
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let prepared = try client.prepare(Request<Receipt>(.post, "forms", body: .multipart(form)))
                #expect(prepared.payload?.length != nil)
                #expect(prepared.payload?.canBeSentAgain == true)
                #expect(prepared.body == nil, "a form with files is never assembled in memory")
                let log = ProgressLog()
                let receipt = try await client.send(Request<Receipt>(.post, "forms", body: .multipart(form)), progress: log.record)
                var thumbnail = FilePattern.Checksum()
                Data([1, 2, 3]).withUnsafeBytes { thumbnail.add($0) }
                #expect(
                    receipt.parts == [
                        Self.textPart("caption", "Holiday, day 3"),
                        Receipt.Part(
                            name: "video", filename: "day3.mp4", content_type: "video/mp4", size: 3 * 1024 * 1024 + 7,
                            checksum: FilePattern.checksum(ofFirst: 3 * 1024 * 1024 + 7).value, text: nil),
                        Receipt.Part(
                            name: "thumbnail", filename: "t.bin", content_type: "application/octet-stream", size: 3,
                            checksum: thumbnail.value, text: "\u{01}\u{02}\u{03}"),
                        Receipt.Part(
                            name: "cover", filename: "front.jpg", content_type: "image/jpeg", size: 1000,
                            checksum: FilePattern.checksum(ofFirst: 1000).value, text: nil),
                    ])
                let uploads = log.all.filter { $0.direction == .upload }
                #expect(uploads.last?.completedBytes == prepared.payload?.length)
                // The length goes out as `Content-Length`, on every transport.
                let echo = try await client.send(Request<Echo>(.post, "echo", body: .multipart(form)))
                #expect(echo.header("content-length") == prepared.payload?.length.map(String.init))
                #expect(echo.header("transfer-encoding") == nil)
                let withProgress = try await client.send(Request<Echo>(.post, "echo", body: .multipart(form)), progress: { _ in })
                #expect(withProgress.header("content-length") == prepared.payload?.length.map(String.init))
                #expect(withProgress.header("transfer-encoding") == nil)
            }
        }
    }

    /// What `/echo` answers: the request's header fields as the server saw them.
    struct Echo: Decodable, Sendable {
        var headers: [[String]]
        var body_size: Int

        func header(_ name: String) -> String? { headers.first { $0.first?.lowercased() == name }?.last }
    }

    @Test("a file body goes out with Content-Length, never chunked, with and without progress", arguments: TransportKind.allCases)
    func fileLength(transport: TransportKind) async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("report.bin")
            try PatternFile.write(1024 * 1024 + 3, to: file)
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let log = ProgressLog()
                for progress in [nil, log.record] as [(@Sendable (TransferProgress) -> Void)?] {
                    let echo = try await client.send(Request<Echo>(.put, "echo/upload", body: .file(file)), progress: progress)
                    #expect(echo.header("content-length") == "1048579")
                    #expect(echo.header("transfer-encoding") == nil)
                    #expect(echo.body_size == 1024 * 1024 + 3)
                }
                let uploaded = log.all.filter { $0.direction == .upload }.map(\.completedBytes)
                #expect(uploaded.last == Int64(1024 * 1024 + 3), "\(uploaded)")
            }
        }
    }

    @Test("a file that grows while it is sent fails clearly, and the server sees no complete form", arguments: TransportKind.allCases)
    func growingFile(transport: TransportKind) async throws {
        try await withTemporaryDirectory { directory in
            let video = directory.appendingPathComponent("growing.mp4")
            try PatternFile.write(8 * 1024 * 1024, to: video)
            var form = MultipartFormData()
            form.append("caption", named: "caption")
            form.appendFile(at: video, named: "video")
            try await withBackends(transport) { backends in
                let client = Self.client(backends) {
                    let handle = try FileHandle(forWritingTo: video)
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data(count: 4096))
                    try handle.close()
                }
                let error = await #expect(throws: CourierError.self) {
                    try await client.send(Request<Receipt>(.post, "forms", body: .multipart(form)))
                }
                #expect(error?.kind == .fileAccessFailed)
                #expect(error?.message?.contains("growing.mp4 changed size while it was sent") == true)
                let received = try await Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                    .send(Request<Received>(.get, "forms/received"))
                #expect(received.complete == 0)
            }
        }
    }

    @Test("a file that shrinks while it is sent fails clearly", arguments: TransportKind.allCases)
    func shrinkingFile(transport: TransportKind) async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("shrinking.bin")
            try PatternFile.write(2 * 1024 * 1024, to: file)
            try await withBackends(transport) { backends in
                let client = Self.client(backends) {
                    try FileManager.default.removeItem(at: file)
                    try PatternFile.write(1024, to: file)
                }
                let error = await #expect(throws: CourierError.self) {
                    try await client.send(Request<Data>(.put, "files", body: .file(file)))
                }
                #expect(error?.kind == .fileAccessFailed)
                #expect(error?.message?.contains("shrinking.bin changed size while it was sent") == true)
            }
        }
    }

    @Test("the reference server reads a preamble, parts without headers and empty parts as RFC 7578 says")
    func serverReadsOddForms() async throws {
        let body =
            "a preamble to ignore\r\n--b\r\n\r\nno headers\r\n--b\r\n\r\n\r\n--b  \r\n"
            + "Content-Disposition: form-data; name=\"last\"\r\n\r\nend\r\n--b--\r\nan epilogue"
        try await withBackends { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let receipt = try await client.send(
                Request<Receipt>(.post, "forms", body: .data(Data(body.utf8), contentType: "multipart/form-data; boundary=b"))
            )
            #expect(receipt.parts.map(\.text) == ["no headers", "", "end"])
            #expect(receipt.parts.map(\.name) == [nil, nil, "last"])
        }
    }

    /// What `/files` answers: the whole body's size and checksum.
    struct FileReceipt: Decodable, Sendable {
        var bytes: Int
        var checksum: UInt64
    }

    /// The most a gigabyte upload may raise the client's peak memory by, in MiB, as "Large
    /// transfers" gives it. URLSession on Linux is allowed more: swift-corelibs-foundation reads the
    /// file on threads of its own, each with a glibc arena that keeps what it held (17–26 MiB for a
    /// 1 GiB file, 5 with `MALLOC_ARENA_MAX=2`; `scripts/upload-memory-under-load.sh`).
    static func memoryBound(_ transport: String) -> Double {
        transport == "asynchttpclient" ? 16 : 32
    }

    @Test(
        "a 1 GiB form or file raises the client's peak memory by at most the documented bound",
        arguments: ["urlsession", "asynchttpclient"], ["form", "file"])
    func gigabyteUpload(transport: String, body: String) async throws {
        #if !AsyncHTTPClient
        if transport == "asynchttpclient" { return }
        #endif
        let size = 1 << 30
        try await withTemporaryDirectory { directory in
            let video = directory.appendingPathComponent("big.mp4")
            try PatternFile.write(size, to: video)
            let checksum = try FilePattern.checksum(of: video).value
            try await withReferenceServerProcess { server in
                let path = body == "form" ? "forms" : "files"
                let report = try await UploadProcess.run(file: video, path: path, baseURL: server.baseURL, transport: transport, body: body)
                if body == "form" {
                    let receipt = try JSONDecoder().decode(Receipt.self, from: report.receipt)
                    #expect(
                        receipt.parts == [
                            Self.textPart("caption", "a caption"),
                            Receipt.Part(
                                name: "video", filename: "big.mp4", content_type: "video/mp4", size: size,
                                checksum: checksum, text: nil),
                            Self.textPart("trailer", "the end"),
                        ])
                } else {
                    let receipt = try JSONDecoder().decode(FileReceipt.self, from: report.receipt)
                    #expect(receipt.bytes == size)
                    #expect(receipt.checksum == checksum)
                }
                #expect(
                    report.peakAfter - report.peakBefore <= Self.memoryBound(transport),
                    "peak \(report.peakBefore) MiB before, \(report.peakAfter) MiB after")
            }
        }
    }
}
