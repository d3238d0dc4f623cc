import Foundation
import Hummingbird
import NIOCore

/// Builds the JSON responses the reference backends send.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The social and auth backends' error shape: `{"message": "…"}`.
    static func message(_ message: String, status: HTTPResponse.Status) -> Response {
        make(["message": message], status: status)
    }

    /// The movie backend's (TMDB's) error shape.
    static func tmdbError(code: Int, message: String, status: HTTPResponse.Status) -> Response {
        struct TMDBError: Encodable {
            var status_code: Int
            var status_message: String
            var success = false
        }
        return make(TMDBError(status_code: code, status_message: message), status: status)
    }

    static func empty(status: HTTPResponse.Status = .noContent) -> Response {
        Response(status: status)
    }
}

extension Request {
    /// The body decoded as JSON, or `nil` when it is missing or malformed.
    func decodeJSON<Value: Decodable>(_ type: Value.Type) async -> Value? {
        guard let buffer = try? await body.collect(upTo: 4 * 1024 * 1024) else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(buffer.readableBytesView))
    }

    /// The access token from `Authorization: JWT …` / `Bearer …` or the `access_token` query item.
    var accessToken: String? {
        if let authorization = headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, ["jwt", "bearer"].contains(parts[0].lowercased()) { return String(parts[1]) }
        }
        return uri.queryParameters["access_token"].map(String.init)
    }

    /// The first value of a header field, by name, case-insensitively.
    func headerValue(_ name: String) -> String? {
        headers.first { $0.name.canonicalName == name.lowercased() }?.value
    }

    /// A query item as an integer.
    func queryInt(_ name: String) -> Int? {
        uri.queryParameters[name[...]].flatMap { Int($0) }
    }
}
