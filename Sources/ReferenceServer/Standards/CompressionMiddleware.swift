import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Compresses responses the way web servers do: gzip (or deflate) when the request's
/// `Accept-Encoding` allows it, for text and JSON bodies of a known length from 1 KiB to 8 MiB,
/// with `Vary: Accept-Encoding`. Streams and files pass untouched, and so do `/bench` routes,
/// which measure clients, not zlib.
struct CompressionMiddleware: RouterMiddleware {
    typealias Context = ReferenceRequestContext

    /// Bodies this size or larger are compressed (nginx's `gzip_min_length` does the same).
    static let smallestCompressed = 1024
    /// Larger bodies are left alone: compressing means holding them whole.
    static let largestCompressed = 8 * 1024 * 1024

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        guard !request.uri.path.hasPrefix("/bench"),
            let algorithm = Self.algorithm(accepted: request.headers[.acceptEncoding]),
            response.headers[.contentEncoding] == nil,
            let length = response.body.contentLength,
            (Self.smallestCompressed...Self.largestCompressed).contains(length),
            let type = response.headers[.contentType]?.lowercased(),
            type.contains("json") || type.hasPrefix("text/")
        else { return response }
        return try await Self.compress(response, with: algorithm)
    }

    /// gzip, or deflate when only that is accepted; `nil` when neither is.
    static func algorithm(accepted: String?) -> ContentCoding? {
        guard let accepted = accepted?.lowercased() else { return nil }
        let codings = accepted.split(separator: ",").compactMap { item -> String? in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first, !parts.dropFirst().contains(where: { $0.replacingOccurrences(of: " ", with: "") == "q=0" })
            else { return nil }
            return name
        }
        if codings.contains("gzip") || codings.contains("*") { return .gzip }
        if codings.contains("deflate") { return .deflate }
        return nil
    }

    /// The response with its body compressed and its headers saying so.
    static func compress(_ response: Response, with coding: ContentCoding) async throws -> Response {
        var response = response
        var plain = try await BodyCollector.collect(response.body)
        let compressed = try plain.compress(with: coding.algorithm)
        response.headers[.contentEncoding] = coding.rawValue
        response.headers[.contentLength] = String(compressed.readableBytes)
        response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }
}

/// The content codings the reference server writes.
enum ContentCoding: String, Sendable {
    case gzip
    case deflate

    var algorithm: CompressionAlgorithm {
        switch self {
        case .gzip: .gzip()
        case .deflate: .zlib()
        }
    }
}
