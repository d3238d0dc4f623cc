import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1
import ReferenceServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A large transfer between a file and the reference server: a download to a file or an upload
/// from one, one at a time, raw and through Courier.
struct FileWorkload: Sendable {
    enum Direction: Sendable {
        case download, upload
    }

    let direction: Direction
    let bytes: Int

    static let mebibyte = 1024 * 1024

    var name: String {
        let size = bytes >= 1024 * Self.mebibyte ? "\(bytes / (1024 * Self.mebibyte))gib" : "\(bytes / Self.mebibyte)mib"
        return direction == .download ? "download_\(size)_to_file" : "upload_\(size)_from_file"
    }

    /// Where transfers read and write: one directory per run, removed at the end.
    struct Files: Sendable {
        let directory: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        /// A file of `bytes` pattern bytes for uploads, written once in 1 MiB pieces.
        func source(bytes: Int) throws -> URL {
            let url = directory.appendingPathComponent("source-\(bytes).bin")
            if FileManager.default.fileExists(atPath: url.path) { return url }
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw RawClients.BadResponse() }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            let piece = Data(FilePattern.bytes(0..<(251 * 4096)))
            var remaining = bytes
            while remaining > 0 {
                let count = min(remaining, piece.count)
                try handle.write(contentsOf: piece.prefix(count))
                remaining -= count
            }
            return url
        }

        func destination(_ name: String) -> URL {
            directory.appendingPathComponent(name)
        }

        /// Deletes what downloads wrote, keeping upload sources.
        func removeDownloads() {
            for name in ["courier.bin", "raw.bin"] {
                try? FileManager.default.removeItem(at: destination(name))
            }
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// One transfer through Courier.
    func courier(_ client: Client, files: Files) async throws {
        switch direction {
        case .download:
            let file = try await client.download(
                Request<Data>(.get, "files/\(bytes)").timeout(.seconds(600)),
                to: files.destination("courier.bin")
            )
            guard file.byteCount == Int64(bytes) else { throw RawClients.BadResponse() }
        case .upload:
            struct Receipt: Decodable { var bytes: Int }
            let receipt = try await client.send(
                Request<Receipt>(.put, "files", body: .file(try files.source(bytes: bytes))).timeout(.seconds(600))
            )
            guard receipt.bytes == bytes else { throw RawClients.BadResponse() }
        }
    }

    /// One transfer with AsyncHTTPClient as a careful user would write it: the body streamed to or
    /// from a `FileHandle`.
    func asyncHTTPClient(_ raw: RawClients, files: Files) async throws {
        switch direction {
        case .download:
            let request = HTTPClientRequest(url: "\(raw.baseURL)/files/\(bytes)")
            let response = try await raw.httpClient.execute(request, timeout: .seconds(600))
            guard response.status == .ok else { throw RawClients.BadResponse() }
            let url = files.destination("raw.bin")
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw RawClients.BadResponse() }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var received = 0
            for try await buffer in response.body {
                received += buffer.readableBytes
                try buffer.withUnsafeReadableBytes { try handle.write(contentsOf: $0) }
            }
            guard received == bytes else { throw RawClients.BadResponse() }
        case .upload:
            let source = try files.source(bytes: bytes)
            var request = HTTPClientRequest(url: "\(raw.baseURL)/files")
            request.method = .PUT
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            request.body = .stream(FileChunks(url: source), length: .known(Int64(bytes)))
            let response = try await raw.httpClient.execute(request, timeout: .seconds(600))
            guard response.status == .ok else { throw RawClients.BadResponse() }
            _ = try await response.body.collect(upTo: 1024 * 1024)
        }
    }

    /// One transfer with URLSession's own file tasks.
    func urlSession(_ raw: RawClients, files: Files) async throws {
        guard let url = URL(string: direction == .download ? "\(raw.baseURL)/files/\(bytes)" : "\(raw.baseURL)/files") else {
            throw RawClients.BadResponse()
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = 600
        switch direction {
        case .download:
            let (location, response) = try await raw.session.download(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw RawClients.BadResponse() }
            let destination = files.destination("raw.bin")
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.moveItem(at: location, to: destination)
        case .upload:
            request.httpMethod = "PUT"
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
            let (_, response) = try await raw.session.upload(for: request, fromFile: try files.source(bytes: bytes))
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw RawClients.BadResponse() }
        }
    }
}

/// A file read in 256 KiB `ByteBuffer`s, for AsyncHTTPClient's streamed request bodies.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let url: URL

    struct AsyncIterator: AsyncIteratorProtocol {
        let url: URL
        var handle: FileHandle?

        mutating func next() async throws -> ByteBuffer? {
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            guard let data = try handle?.read(upToCount: 256 * 1024), !data.isEmpty else {
                try handle?.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(url: url)
    }
}
