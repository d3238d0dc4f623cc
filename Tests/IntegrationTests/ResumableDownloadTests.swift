import Foundation
import ReferenceServer
import TestSupport
import Testing

@testable import Courier

// Alone (`.heavyLoad`): megabytes written, compared and served across 40 cases would otherwise
// share the two cores with the suites that measure time.
@Suite("A resumable download survives cuts, kills and misbehaving servers", .heavyLoad)
struct ResumableDownloadTests {
    /// Runs `body` with a client over `transport` to a reference server of its own, and an empty
    /// directory for its files.
    static func withClient<T>(_ transport: TransportKind, _ body: (Client, URL, ReferenceBackends) async throws -> T) async throws -> T {
        try await withTemporaryDirectory { directory in
            try await withBackends(transport) { backends in
                try await body(Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport), directory, backends)
            }
        }
    }

    /// Calls `resumableDownload` until the file is whole (at most `calls` times), recording the
    /// progress of each call.
    static func downloadUntilWhole(
        _ client: Client,
        _ request: Request<Data>,
        to destination: URL,
        calls: Int = 6
    ) async throws -> (file: DownloadedFile, calls: [ProgressLog], errors: [CourierError]) {
        var logs: [ProgressLog] = []
        var errors: [CourierError] = []
        for _ in 0..<calls {
            let log = ProgressLog()
            logs.append(log)
            do {
                let file = try await client.resumableDownload(request, to: destination, progress: log.record)
                return (file, logs, errors)
            } catch {
                errors.append(error)
            }
        }
        throw errors.last ?? CourierError(.invalidResponse)
    }

    /// Whether `destination` holds exactly the first `size` bytes of the pattern, with no partial
    /// file or record left beside it.
    static func isWhole(_ destination: URL, size: Int) throws -> Bool {
        let partial = PartialDownload(destination: destination)
        let leftovers = [partial.file, partial.recordFile].filter { FileManager.default.fileExists(atPath: $0.path) }
        // Compared whole (memcmp), not checksummed a byte at a time: cheap even in a debug build.
        let contents = try Data(contentsOf: destination)
        return leftovers.isEmpty && contents == FilePattern.data(count: size)
    }

    @Test("a download cut at ten seeded points resumes each time to the same bytes", arguments: TransportKind.allCases)
    func cutsResume(transport: TransportKind) async throws {
        let size = 2_000_003
        var random = SeededRandom(state: 44)
        try await Self.withClient(transport) { client, directory, _ in
            for round in 0..<10 {
                let cut = Int.random(in: 1..<size, using: &random)
                let destination = directory.appendingPathComponent("cut-\(round).bin")
                let request = Request<Data>(.get, "ranged/\(size)", query: ["cut": cut])
                let (file, calls, errors) = try await Self.downloadUntilWhole(client, request, to: destination)
                #expect(file.byteCount == Int64(size))
                #expect(try Self.isWhole(destination, size: size), "cut at \(cut)")
                #expect(errors.count >= 1, "the first call is cut at \(cut)")
                // Each later call starts where the call before it stopped, never from zero.
                for (before, after) in zip(calls, calls.dropFirst()) {
                    let stopped = before.downloads.last?.completedBytes ?? 0
                    #expect(after.downloads.first?.completedBytes == stopped, "cut at \(cut)")
                }
                #expect(calls.last?.downloads.last?.completedBytes == Int64(size))
            }
        }
    }

    @Test(
        "a server that serves ranges wrong still gives the right file",
        arguments: TransportKind.allCases,
        ["ignore-range", "changing-etag", "weak-etag", "no-validator", "last-modified-only", "early-start", "wrong-length", "compress-range", "short-ranges"]
    )
    func misbehavingServer(transport: TransportKind, misbehaviour: String) async throws {
        let size = 3_000_017
        let cut = 1_234_567
        try await Self.withClient(transport) { client, directory, _ in
            let destination = directory.appendingPathComponent("file.bin")
            let request = Request<Data>(.get, "ranged/\(size)", query: ["cut": cut, "misbehave": misbehaviour])
            await #expect(throws: CourierError.self) { try await client.resumableDownload(request, to: destination) }
            let saved = DownloadRecord.existing(for: destination)
            let log = ProgressLog()
            let file = try await client.resumableDownload(request, to: destination, progress: log.record)
            #expect(file.byteCount == Int64(size))
            #expect(try Self.isWhole(destination, size: size))
            let first = log.downloads.first?.completedBytes
            switch misbehaviour {
            case "weak-etag", "no-validator":
                // Nothing names the version: nothing is kept to resume.
                #expect(saved == nil)
                #expect(first == 0)
            case "last-modified-only", "early-start", "short-ranges":
                #expect(saved?.bytesWritten ?? 0 > 0)
                #expect(first == saved?.bytesWritten)
                if misbehaviour == "last-modified-only" { #expect(saved?.validator == .lastModified("Wed, 21 Oct 2026 07:28:00 GMT")) }
            default:
                // A range that cannot be used: the file starts again from the first byte.
                #expect(saved?.bytesWritten ?? 0 > 0)
                #expect(log.downloads.contains { $0.completedBytes == 0 })
            }
        }
    }

    @Test("an expired signed link is renewed through the hook and the download resumes", arguments: TransportKind.allCases)
    func expiredLink(transport: TransportKind) async throws {
        let size = 1_500_000
        try await Self.withClient(transport) { client, directory, _ in
            let destination = directory.appendingPathComponent("signed.bin")
            let expiring = Request<Data>(.get, "ranged/\(size)", query: ["signature": "first-\(transport)", "cut": 600_000])
            await #expect(throws: CourierError.self) { try await client.resumableDownload(expiring, to: destination) }
            let saved = try #require(DownloadRecord.existing(for: destination))
            let refusals = LockedBox<[Int]>([])
            let log = ProgressLog()
            let file = try await client.resumableDownload(expiring, to: destination, progress: log.record) { error in
                refusals.append(error.status?.code ?? 0)
                return Request<Data>(.get, "ranged/\(size)", query: ["signature": "second-\(transport)", "cut": 600_000])
            }
            #expect(refusals.all == [403])
            #expect(file.byteCount == Int64(size))
            #expect(try Self.isWhole(destination, size: size))
            #expect(log.downloads.first?.completedBytes == saved.bytesWritten)
        }
    }

    @Test("a cancelled download keeps its bytes, and the next call resumes from them", arguments: TransportKind.allCases)
    func cancelledResumes(transport: TransportKind) async throws {
        let size = 4_000_000
        try await Self.withClient(transport) { client, directory, _ in
            let destination = directory.appendingPathComponent("paced.bin")
            let started = AsyncStream.makeStream(of: Void.self)
            let paced = Request<Data>(.get, "ranged/\(size)", query: ["rate": 1_000_000])
            let task = Task {
                try await client.resumableDownload(
                    paced, to: destination,
                    progress: { progress in
                        if progress.completedBytes > 100_000 { started.continuation.yield() }
                    })
            }
            for await _ in started.stream { break }
            task.cancel()
            let result = await capture { try await task.value }
            #expect(result.error?.kind == .cancelled)
            let saved = try #require(DownloadRecord.existing(for: destination))
            #expect(saved.bytesWritten > 100_000)
            let log = ProgressLog()
            _ = try await client.resumableDownload(Request<Data>(.get, "ranged/\(size)", query: ["rate": 1_000_000]), to: destination, progress: log.record)
            #expect(log.downloads.first?.completedBytes == saved.bytesWritten)
            #expect(try Self.isWhole(destination, size: size))
        }
    }

    @Test("a download killed with SIGKILL resumes in another process to the same bytes", .timeLimit(.minutes(5)), arguments: TransportKind.allCases)
    func killedProcess(transport: TransportKind) async throws {
        let size = 6_000_000
        try await withTemporaryDirectory { directory in
            try await withBackends(transport) { backends in
                let destination = directory.appendingPathComponent("killed.bin")
                let (killed, reported) = try await DownloadProcess.run(
                    baseURL: backends.server.baseURL,
                    path: "ranged/\(size)",
                    query: ["rate=2000000"],
                    to: destination,
                    transport: transport.rawValue.lowercased(),
                    killAfter: 3_000_000
                )
                #expect(killed)
                #expect(reported >= 3_000_000)
                let saved = try #require(DownloadRecord.existing(for: destination))
                #expect(saved.bytesWritten > 0 && saved.bytesWritten <= reported)
                #expect(saved.totalBytes == Int64(size))
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let log = ProgressLog()
                _ = try await client.resumableDownload(Request<Data>(.get, "ranged/\(size)", query: ["rate": 2_000_000]), to: destination, progress: log.record)
                #expect(log.downloads.first?.completedBytes == saved.bytesWritten)
                #expect(try Self.isWhole(destination, size: size))
            }
        }
    }

    @Test("a file already whole but not yet moved into place is finished by a 416", arguments: TransportKind.allCases)
    func wholeBeforeRename(transport: TransportKind) async throws {
        let size = 100_000
        try await Self.withClient(transport) { client, directory, _ in
            let destination = directory.appendingPathComponent("done.bin")
            let partial = PartialDownload(destination: destination)
            try Data(FilePattern.bytes(0..<size)).write(to: partial.file)
            let url = try #require(client.prepare(Request<Data>(.get, "ranged/\(size)")).url)
            try partial.write(DownloadRecord(url: url.absoluteString, validator: .entityTag("\"pattern-\(size)\""), bytesWritten: Int64(size), totalBytes: Int64(size)))
            let file = try await client.resumableDownload(Request<Data>(.get, "ranged/\(size)"), to: destination)
            #expect(file.response.status == .rangeNotSatisfiable)
            #expect(try Self.isWhole(destination, size: size))
        }
    }

    @Test("the record keeps no query value, so no key or signature reaches the disk")
    func recordRedactsQuery() async throws {
        try await Self.withClient(.urlSession) { client, directory, _ in
            let destination = directory.appendingPathComponent("secret.bin")
            let request = Request<Data>(.get, "ranged/500000", query: ["api_key": "SECRET-KEY-123", "cut": 200_000])
            await #expect(throws: CourierError.self) { try await client.resumableDownload(request, to: destination) }
            let record = try #require(DownloadRecord.existing(for: destination))
            #expect(record.url.contains("api_key=***"))
            let stored = try String(contentsOf: PartialDownload(destination: destination).recordFile, encoding: .utf8)
            #expect(!stored.contains("SECRET-KEY-123"))
            _ = try await client.resumableDownload(request, to: destination)
            #expect(try Self.isWhole(destination, size: 500_000))
        }
    }

    @Test("progress as a sequence: a resumed download starts at its offset, grows, ends at the total, with a throughput", arguments: TransportKind.allCases)
    func progressSequence(transport: TransportKind) async throws {
        let size = 2_500_000
        try await Self.withClient(transport) { client, directory, _ in
            let destination = directory.appendingPathComponent("progress.bin")
            let request = Request<Data>(.get, "ranged/\(size)", query: ["cut": 1_000_000, "rate": 4_000_000])
            await #expect(throws: CourierError.self) { try await client.resumableDownload(request, to: destination) }
            let saved = try #require(DownloadRecord.existing(for: destination))
            let updates = TransferProgressUpdates()
            let reader = Task {
                var seen: [TransferProgress] = []
                for await update in updates { seen.append(update) }
                return seen
            }
            _ = try await updates.reporting { progress in
                try await client.resumableDownload(request, to: destination, progress: progress)
            }
            let seen = await reader.value
            #expect(seen.first?.completedBytes ?? 0 >= saved.bytesWritten)
            #expect(seen.map(\.completedBytes) == seen.map(\.completedBytes).sorted())
            #expect(seen.last?.completedBytes == Int64(size))
            #expect(seen.last?.totalBytes == Int64(size))
            #expect((seen.last?.bytesPerSecond ?? 0) > 0)
        }
    }

    @Test("progress as a sequence for an upload ends at the file's size", arguments: TransportKind.allCases)
    func uploadProgressSequence(transport: TransportKind) async throws {
        struct Receipt: Decodable { var bytes: Int }
        let size = 1_000_000
        try await Self.withClient(transport) { client, directory, _ in
            let source = directory.appendingPathComponent("upload.bin")
            try Data(FilePattern.bytes(0..<size)).write(to: source)
            let updates = TransferProgressUpdates()
            let reader = Task {
                var seen: [TransferProgress] = []
                for await update in updates where update.direction == .upload { seen.append(update) }
                return seen
            }
            let receipt = try await updates.reporting { progress in
                try await client.send(Request<Receipt>(.put, "files", body: .file(source)), progress: progress)
            }
            let seen = await reader.value
            #expect(receipt.bytes == size)
            #expect(seen.map(\.completedBytes) == seen.map(\.completedBytes).sorted())
            #expect(seen.last?.completedBytes == Int64(size))
        }
    }
}
