import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// One part of a `multipart/form-data` body as the server read it, parsed by MultipartKit (an
/// implementation independent of Courier's encoder).
struct MultipartSummary: Encodable, Sendable {
    var name: String?
    var filename: String?
    var content_type: String?
    var size: Int
    /// The part as UTF-8 text, when it is text of at most 4 KiB.
    var text: String?

    enum ParseError: Error {
        case notMultipart
        case tooLarge
    }

    static func parse(_ request: inout Request) async throws -> [MultipartSummary] {
        guard let contentType = request.headers[.contentType], let boundary = boundary(in: contentType) else {
            throw ParseError.notMultipart
        }
        let body = try await request.body.collect(upTo: 64 * 1024 * 1024)
        return try parse(body, boundary: boundary)
    }

    static func parse(_ body: ByteBuffer, boundary: String) throws -> [MultipartSummary] {
        final class Collector {
            var parts: [MultipartSummary] = []
            var headers: [(String, String)] = []
            var bytes: [UInt8] = []
        }
        let collector = Collector()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in collector.headers.append((name, value)) }
        parser.onBody = { buffer in collector.bytes.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            let disposition = collector.headers.first { $0.0.lowercased() == "content-disposition" }?.1 ?? ""
            let text = collector.bytes.count <= 4096 ? String(validating: collector.bytes, as: UTF8.self) : nil
            collector.parts.append(
                MultipartSummary(
                    name: parameter("name", in: disposition),
                    filename: parameter("filename", in: disposition),
                    content_type: collector.headers.first { $0.0.lowercased() == "content-type" }?.1,
                    size: collector.bytes.count,
                    text: text
                )
            )
            collector.headers = []
            collector.bytes = []
        }
        try parser.execute(body)
        return collector.parts
    }

    static func boundary(in contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        return parameter("boundary", in: contentType)
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
