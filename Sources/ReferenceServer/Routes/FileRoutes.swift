import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Routes for large transfers, served and consumed piece by piece so the server's memory stays
/// flat:
///
/// - `GET /files/{bytes}`: `bytes` bytes of ``FilePattern`` (`application/octet-stream`, with
///   `Content-Length`), up to 16 GiB.
/// - `POST|PUT /files`: reads the body as it arrives and answers `{"bytes": N, "checksum": C}`
///   with ``FilePattern/Checksum``.
enum FileRoutes {
    struct Receipt: Codable {
        var bytes: Int
        var checksum: UInt64
    }

    static let largestFile = 16 * 1024 * 1024 * 1024

    static func register(on router: Router<ReferenceRequestContext>) {
        let piece = ByteBuffer(bytes: FilePattern.bytes(0..<FilePattern.pieceSize))
        router.get("files/:bytes") { _, context -> Response in
            guard let size = context.parameters.get("bytes", as: Int.self), (0...largestFile).contains(size) else {
                return JSONResponse.message("Give a size from 0 to \(largestFile) bytes.", status: .badRequest)
            }
            let body = ResponseBody(contentLength: size) { writer in
                var remaining = size
                while remaining > 0 {
                    let count = min(remaining, piece.readableBytes)
                    try await writer.write(piece.getSlice(at: piece.readerIndex, length: count) ?? piece)
                    remaining -= count
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
        for method in [HTTPRequest.Method.post, .put] {
            router.on("files", method: method) { request, _ -> Response in
                var checksum = FilePattern.Checksum()
                var bytes = 0
                for try await buffer in request.body {
                    bytes += buffer.readableBytes
                    buffer.withUnsafeReadableBytes { checksum.add($0) }
                }
                return JSONResponse.make(Receipt(bytes: bytes, checksum: checksum.value))
            }
        }
    }
}

/// The bytes `/files/{bytes}` serves (byte *i* is *i* mod 251) and the checksum `/files` answers
/// with, so tests can check a transfer end to end without keeping either side in memory.
public enum FilePattern {
    /// A whole number of pattern periods (251 × 256 bytes), so pieces repeat seamlessly.
    static let pieceSize = 251 * 256

    /// The pattern's bytes at `range`.
    /// - Parameter range: Byte offsets.
    /// - Returns: The bytes.
    public static func bytes(_ range: Range<Int>) -> [UInt8] {
        range.map { UInt8($0 % 251) }
    }

    /// An order-sensitive checksum (Fletcher-style, wrapping 64-bit sums), fed piece by piece.
    public struct Checksum: Sendable, Equatable {
        private var low: UInt64 = 0
        private var high: UInt64 = 0

        /// An empty checksum.
        public init() {}

        /// Adds the next bytes.
        /// - Parameter bytes: The bytes, in order.
        public mutating func add(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                low &+= UInt64(byte)
                high &+= low
            }
        }

        /// The checksum so far.
        public var value: UInt64 {
            high ^ (low << 32)
        }
    }

    /// The first `count` bytes of the pattern, built a period at a time: what a whole download of
    /// `/files/{count}` or `/ranged/{count}` holds, to compare a file with.
    /// - Parameter count: The file's size.
    /// - Returns: The bytes.
    public static func data(count: Int) -> Data {
        let period = Data((0..<251).map { UInt8($0) })
        var data = Data(capacity: max(0, count))
        while data.count < count {
            data.append(period.prefix(count - data.count))
        }
        return data
    }

    /// The checksum of the first `count` bytes of the pattern: what a whole download of
    /// `/files/{count}` or `/ranged/{count}` holds.
    /// - Parameter count: The file's size.
    /// - Returns: The checksum.
    public static func checksum(ofFirst count: Int) -> Checksum {
        var checksum = Checksum()
        var offset = 0
        while offset < count {
            let piece = bytes(offset..<min(count, offset + pieceSize))
            piece.withUnsafeBytes { checksum.add($0) }
            offset += piece.count
        }
        return checksum
    }

    /// The checksum of a file's bytes, read a mebibyte at a time.
    /// - Parameter file: A `file:` URL.
    /// - Returns: The checksum.
    /// - Throws: When the file cannot be read.
    public static func checksum(of file: URL) throws -> Checksum {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var checksum = Checksum()
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            data.withUnsafeBytes { checksum.add($0) }
        }
        return checksum
    }
}
