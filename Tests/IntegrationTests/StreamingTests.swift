import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("Files stream to and from disk, and bodies can be read as they arrive", .timingSensitive)
struct StreamingTests {
    struct Receipt: Decodable, Sendable {
        var bytes: Int
        var checksum: UInt64
    }

    @Test("a download lands in its file, complete, with progress up to the total", arguments: TransportKind.allCases)
    func download(transport: TransportKind) async throws {
        let size = 1024 * 1024 + 17
        try await withTemporaryDirectory { directory in
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let destination = directory.appendingPathComponent("pattern.bin")
                let log = ProgressLog()
                let file = try await client.download(Request<Data>(.get, "files/\(size)"), to: destination, progress: log.record)
                #expect(file.url == destination)
                #expect(file.byteCount == Int64(size))
                #expect(file.contentType == "application/octet-stream")
                let checksum = try FilePattern.checksum(of: destination)
                #expect(checksum == FilePattern.checksum(ofFirst: size))
                let downloads = log.all.filter { $0.direction == .download }
                #expect(downloads.last?.completedBytes == Int64(size))
                #expect(downloads.last?.totalBytes == Int64(size))
                #expect(downloads.map(\.completedBytes) == downloads.map(\.completedBytes).sorted())
                let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                #expect(names == ["pattern.bin"])
            }
        }
    }

    @Test("a download replaces an existing file", arguments: TransportKind.allCases)
    func downloadReplaces(transport: TransportKind) async throws {
        try await withTemporaryDirectory { directory in
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let destination = directory.appendingPathComponent("file.bin")
                try Data(repeating: 7, count: 100_000).write(to: destination)
                let file = try await client.download(Request<Data>(.get, "files/1000"), to: destination)
                #expect(file.byteCount == 1000)
                let contents = try Data(contentsOf: destination)
                #expect(contents == Data(FilePattern.bytes(0..<1000)))
            }
        }
    }

    @Test("a failed download is an error with the server's message and leaves no file", arguments: TransportKind.allCases)
    func failedDownload(transport: TransportKind) async throws {
        try await withTemporaryDirectory { directory in
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let destination = directory.appendingPathComponent("never.bin")
                let error = await #expect(throws: CourierError.self) {
                    try await client.download(Request<Data>(.get, "files/lots"), to: destination)
                }
                #expect(error?.kind == .clientError)
                #expect(error?.localizedDescription.contains("Give a size") == true)
                let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                #expect(names.isEmpty)
            }
        }
    }

    @Test("a cancelled download ends quickly and leaves no partial file", arguments: TransportKind.allCases)
    func cancelledDownload(transport: TransportKind) async throws {
        try await withTemporaryDirectory { directory in
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let destination = directory.appendingPathComponent("big.bin")
                let started = AsyncStream.makeStream(of: Void.self)
                let task = Task {
                    try await client.download(Request<Data>(.get, "files/\(8 * 1024 * 1024 * 1024)"), to: destination) { progress in
                        if progress.completedBytes > 0 { started.continuation.yield() }
                    }
                }
                for await _ in started.stream { break }
                let (result, elapsed) = await measure {
                    task.cancel()
                    return await capture { try await task.value }
                }
                #expect(result.error?.kind == .cancelled)
                #expect(elapsed < hangBound)
                let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                #expect(names.isEmpty)
                #expect(client.inFlightCount == 0)
            }
        }
    }

    @Test("an upload streams a file and the server receives every byte", arguments: TransportKind.allCases)
    func upload(transport: TransportKind) async throws {
        let size = 1024 * 1024 + 5
        try await withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("upload.bin")
            try Data(FilePattern.bytes(0..<size)).write(to: source)
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let log = ProgressLog()
                let receipt = try await client.send(Request<Receipt>(.put, "files", body: .file(source)), progress: log.record)
                #expect(receipt.bytes == size)
                #expect(receipt.checksum == FilePattern.checksum(ofFirst: size).value)
                let uploads = log.all.filter { $0.direction == .upload }
                #expect(uploads.last?.completedBytes == Int64(size))
                #expect(uploads.last?.totalBytes == Int64(size))
            }
        }
    }

    @Test("an upload of a missing file fails before anything is sent", arguments: TransportKind.allCases)
    func missingUpload(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent("courier-missing-\(UUID().uuidString)")
            let error = await #expect(throws: CourierError.self) {
                try await client.send(Request<Receipt>(.post, "flaky/missing-upload", query: ["failures": 0], body: .file(missing)))
            }
            #expect(error?.kind == .fileAccessFailed)
            #expect(await backends.server.hits(forKey: "missing-upload") == 0)
        }
    }

    @Test("a retried upload opens its file again", arguments: TransportKind.allCases)
    func retriedUpload(transport: TransportKind) async throws {
        struct Attempts: Decodable { var attempts: Int }
        try await withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("upload.bin")
            try Data(FilePattern.bytes(0..<200_000)).write(to: source)
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                    $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 3, backoff: Backoff(base: .milliseconds(10))))]
                }
                let result = try await client.send(
                    Request<Attempts>(.put, "flaky/upload", query: ["failures": 1], body: .file(source))
                )
                #expect(result.attempts == 2)
            }
        }
    }

    @Test("a stream hands over the body piece by piece", arguments: TransportKind.allCases)
    func stream(transport: TransportKind) async throws {
        let size = 1024 * 1024 + 3
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let stream = try await client.stream(Request<Data>(.get, "files/\(size)"))
            #expect(stream.response.status == .ok)
            #expect(stream.expectedLength == Int64(size))
            var checksum = FilePattern.Checksum()
            var received = 0
            for try await chunk in stream {
                received += chunk.count
                chunk.withUnsafeBytes { checksum.add($0) }
            }
            #expect(received == size)
            #expect(checksum == FilePattern.checksum(ofFirst: size))
        }
    }

    @Test("a stream of a failed response throws the status's error", arguments: TransportKind.allCases)
    func failedStream(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let error = await #expect(throws: CourierError.self) {
                try await client.stream(Request<Data>(.get, "files/1").header(.fault, "status=404,message=Gone fishing"))
            }
            #expect(error?.kind == .notFound)
            #expect(error?.localizedDescription == "Gone fishing")
        }
    }
}
