import Foundation
import Hummingbird
import NIOCore

/// `/echo/…` with any method: answers with what arrived — method, path, query, header fields,
/// body, and the body parsed as a form or multipart — so tests can check what a client sent.
enum EchoRoutes {
    struct Echo: Encodable {
        var method: String
        var path: String
        var raw_query: String?
        var query: [[String]]
        var headers: [[String]]
        var content_type: String?
        var body_size: Int
        var body_text: String?
        var form: [[String]]?
        var multipart: [MultipartSummary]?
    }

    static let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .head, .options]

    static func register(on router: Router<ReferenceRequestContext>) {
        for method in methods {
            router.on("echo", method: method) { request, _ in try await echo(request) }
            router.on("echo/**", method: method) { request, _ in try await echo(request) }
        }
    }

    static func echo(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024 * 1024)
        let contentType = request.headers[.contentType]
        let rawQuery = request.uri.query
        var echo = Echo(
            method: request.method.rawValue,
            path: request.uri.path,
            raw_query: rawQuery,
            query: queryItems(rawQuery),
            headers: request.headers.map { [$0.name.canonicalName, $0.value] },
            content_type: contentType,
            body_size: body.readableBytes,
            body_text: String(validating: body.readableBytesView, as: UTF8.self)
        )
        if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            echo.form = formItems(echo.body_text ?? "")
        }
        if let contentType, let boundary = MultipartSummary.boundary(in: contentType) {
            echo.multipart = try? MultipartSummary.parse(body, boundary: boundary)
        }
        if request.method == .head {
            return Response(status: .ok, headers: [.contentType: "application/json"])
        }
        return JSONResponse.make(echo)
    }

    /// Query items as Foundation's `URLComponents` reads them (percent-decoded, `+` kept).
    static func queryItems(_ rawQuery: String?) -> [[String]] {
        guard let rawQuery, !rawQuery.isEmpty else { return [] }
        guard let components = URLComponents(string: "http://echo/?" + rawQuery) else { return [["<unparsable>", rawQuery]] }
        return (components.queryItems ?? []).map { [$0.name, $0.value ?? ""] }
    }

    /// Form fields as the HTML standard reads them (`+` is a space, then percent-decoding).
    static func formItems(_ body: String) -> [[String]] {
        body.split(separator: "&").map { pair in
            pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { part in
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
        }
    }
}
