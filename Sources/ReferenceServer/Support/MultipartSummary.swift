import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// One part of a `multipart/form-data` body as the server read it. A request's body is read as it
/// arrives by ``FormParser``: a part's bytes are counted and checksummed, never held, so a form of
/// any size is read in constant memory. A body already in memory (the echo routes) is parsed by
/// MultipartKit. Both are implementations independent of Courier's encoder.
struct MultipartSummary: Encodable, Sendable {
    var name: String?
    var filename: String?
    var content_type: String?
    var size: Int
    /// ``FilePattern/Checksum`` of the part's bytes.
    var checksum: UInt64
    /// The part as UTF-8 text, when it is text of at most 4 KiB.
    var text: String?

    enum ParseError: Error {
        case notMultipart
        case incomplete
    }

    static func parse(_ request: inout Request) async throws -> [MultipartSummary] {
        guard let contentType = request.headers[.contentType], let boundary = boundary(in: contentType) else {
            throw ParseError.notMultipart
        }
        var parser = FormParser(boundary: boundary)
        let part = PartTally()
        var parts: [MultipartSummary] = []
        for try await chunk in request.body {
            try chunk.withUnsafeReadableBytes { bytes in
                try parser.read(
                    bytes,
                    head: { part.headers = $0 },
                    body: { part.add($0) },
                    end: { parts.append(part.summary()) }
                )
            }
        }
        guard parser.isComplete else { throw ParseError.incomplete }
        return parts
    }

    /// One part as it arrives: its headers, size, checksum and first 4 KiB (for text fields).
    private final class PartTally {
        var headers: [(name: String, value: String)] = []
        private var size = 0
        private var checksum = FilePattern.Checksum()
        private var head: [UInt8] = []

        func add(_ bytes: UnsafeRawBufferPointer) {
            size += bytes.count
            checksum.add(bytes)
            if head.count <= 4096 { head.append(contentsOf: bytes.prefix(4097 - head.count)) }
        }

        /// The part read so far, and a fresh start for the next one.
        func summary() -> MultipartSummary {
            let disposition = headers.first { $0.name.lowercased() == "content-disposition" }?.value ?? ""
            defer { (headers, size, checksum, head) = ([], 0, FilePattern.Checksum(), []) }
            return MultipartSummary(
                name: MultipartSummary.parameter("name", in: disposition),
                filename: MultipartSummary.parameter("filename", in: disposition),
                content_type: headers.first { $0.name.lowercased() == "content-type" }?.value,
                size: size,
                checksum: checksum.value,
                text: head.count <= 4096 ? String(validating: head, as: UTF8.self) : nil
            )
        }
    }

    static func parse(_ body: ByteBuffer, boundary: String) throws -> [MultipartSummary] {
        let reader = Reader(boundary: boundary)
        try reader.read(body)
        return try reader.finish()
    }

    /// Reads a form a chunk at a time, keeping of each part its headers, size, checksum and the
    /// first 4 KiB (for text fields).
    private final class Reader {
        private let parser: MultipartParser
        private var parts: [MultipartSummary] = []
        private var headers: [(String, String)] = []
        private var size = 0
        private var checksum = FilePattern.Checksum()
        private var head: [UInt8] = []
        /// A part has begun and not ended.
        private var open = false

        init(boundary: String) {
            parser = MultipartParser(boundary: boundary)
            parser.onHeader = { [unowned self] name, value in
                headers.append((name, value))
                open = true
            }
            parser.onBody = { [unowned self] buffer in
                open = true
                size += buffer.readableBytes
                buffer.withUnsafeReadableBytes { checksum.add($0) }
                if head.count <= 4096 { head.append(contentsOf: buffer.readableBytesView.prefix(4097 - head.count)) }
            }
            parser.onPartComplete = { [unowned self] in
                let disposition = headers.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
                parts.append(
                    MultipartSummary(
                        name: MultipartSummary.parameter("name", in: disposition),
                        filename: MultipartSummary.parameter("filename", in: disposition),
                        content_type: headers.first { $0.0.lowercased() == "content-type" }?.1,
                        size: size,
                        checksum: checksum.value,
                        text: head.count <= 4096 ? String(validating: head, as: UTF8.self) : nil
                    )
                )
                (headers, size, checksum, head, open) = ([], 0, FilePattern.Checksum(), [], false)
            }
        }

        func read(_ chunk: ByteBuffer) throws {
            try parser.execute(chunk)
        }

        /// The parts read; throws when the body ended before the form's closing boundary.
        func finish() throws -> [MultipartSummary] {
            guard !open else { throw ParseError.incomplete }
            return parts
        }
    }

    static func boundary(in contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = parameter("boundary", in: contentType), !boundary.isEmpty
        else { return nil }
        return boundary
    }

    /// A `name=value` or `name="value"` parameter of a header value.
    static func parameter(_ name: String, in headerValue: String) -> String? {
        for piece in headerValue.split(separator: ";") {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }
}
