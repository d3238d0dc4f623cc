import Foundation
import HTTPTypes

/// A content coding of a response body (`Content-Encoding`): `gzip`, `deflate`, `br`, `zstd`, ….
///
/// A ``Transport`` names the codings it decodes in ``Transport/contentCodings``.
public struct ContentCoding: Sendable, Hashable, CustomStringConvertible {
    /// The coding's name, lowercased.
    public let name: String

    /// A coding by its registered name.
    /// - Parameter name: The name as it appears in `Content-Encoding`; case does not matter.
    public init(_ name: String) {
        self.name = name.lowercased()
    }

    /// `gzip` (RFC 9110).
    public static let gzip = ContentCoding("gzip")
    /// `deflate` (RFC 9110).
    public static let deflate = ContentCoding("deflate")
    /// `br`, Brotli (RFC 7932).
    public static let brotli = ContentCoding("br")
    /// `zstd`, Zstandard (RFC 8878).
    public static let zstandard = ContentCoding("zstd")

    /// The coding's name.
    public var description: String { name }

    /// The codings a field value lists (`Content-Encoding`, `Accept-Encoding`), in order, without
    /// `identity`, `*` and any `;q=` weights.
    static func listed(in value: String?) -> [ContentCoding] {
        guard let value else { return [] }
        return value.split(separator: ",").compactMap { item in
            let name = item.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) ?? ""
            guard !name.isEmpty, name != "*", name.lowercased() != "identity" else { return nil }
            return ContentCoding(name)
        }
    }
}

extension ContentCoding {
    /// The error for a response whose body comes in a coding that neither the transport decodes
    /// nor the request asked for itself, or `nil` when it can be read.
    ///
    /// Responses that carry no body (to `HEAD`, 1xx, 204, 304) are never refused: their
    /// `Content-Encoding` describes a body that is not there.
    static func refusal(of response: HTTPResponse, to request: HTTPRequest, decoded: Set<ContentCoding>) -> CourierError? {
        guard request.method != .head, response.headerFields.contains(.contentEncoding) else { return nil }
        return refusal(of: response, asked: listed(in: request.headerFields.value(of: .acceptEncoding)), decoded: decoded)
    }

    /// The error for a response whose body comes in a coding outside `decoded` and `asked`, or
    /// `nil` when it can be read.
    static func refusal(of response: HTTPResponse, asked: [ContentCoding] = [], decoded: Set<ContentCoding>) -> CourierError? {
        guard let field = response.headerFields.value(of: .contentEncoding), response.status.kind != .informational,
            response.status != .noContent, response.status != .notModified
        else { return nil }
        guard let unknown = listed(in: field).first(where: { !decoded.contains($0) && !asked.contains($0) }) else {
            return nil
        }
        let accepted = decoded.map(\.name).sorted().joined(separator: ", ")
        var error = CourierError(
            .invalidResponse,
            message: "The server sent the body in the content coding \"\(unknown.name.prefix(40))\", which was not asked for"
                + " and is not decoded (the transport decodes \(accepted.isEmpty ? "none" : accepted))."
        )
        error.status = response.status
        error.responseHeaderFields = response.headerFields
        return error
    }
}
