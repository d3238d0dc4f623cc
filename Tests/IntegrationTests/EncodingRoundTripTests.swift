import Courier
import Foundation
import TestSupport
import Testing

@Suite("What the encoders write, the server reads back exactly")
struct EncodingRoundTripTests {
    static let awkward = ["a b", "&", "=", "+", "/", "?", "#", "%", "%20", "Zürich", "😀👍🏽", "", "x=1&y=2", "\"quoted\"", "tab\there"]

    @Test("query values with reserved characters, unicode and emoji", arguments: TransportKind.allCases)
    func query(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            var items: [(name: String, value: QueryValue)] = []
            for (index, value) in Self.awkward.enumerated() { items.append(("k\(index) \(value)", .text(value))) }
            items.append(("flag", .bool(true)))
            items.append(("ids", .list([.text("1"), .text("2")])))
            items.append(("price", Decimal(string: "19.99")?.queryValue ?? .absent))
            let echo = try await backends.echo().send(Request<Echo>(.get, "q", query: QueryParameters(items)))
            var expected = Self.awkward.enumerated().map { ["k\($0.offset) \($0.element)", $0.element] }
            expected += [["flag", "true"], ["ids", "1"], ["ids", "2"], ["price", "19.99"]]
            #expect(echo.query == expected)
        }
    }

    @Test("nested query values with brackets", arguments: TransportKind.allCases)
    func nestedQuery(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.queryEncoder = QueryStringEncoder(arrayEncoding: .brackets, boolEncoding: .numeric) }
            let filter: JSONValue = ["genre": ["drama", "comedy"], "adult": false, "year": ["gte": 1990]]
            let echo = try await client.send(Request<Echo>(.get, "q", query: ["filter": filter]))
            #expect(
                echo.query == [
                    ["filter[adult]", "0"], ["filter[genre][]", "drama"], ["filter[genre][]", "comedy"], ["filter[year][gte]", "1990"],
                ])
        }
    }

    @Test("form bodies", arguments: TransportKind.allCases)
    func form(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let items = Self.awkward.enumerated().map { (name: "f\($0.offset)", value: QueryValue.text($0.element)) }
            let echo = try await backends.echo().send(Request<Echo>(.post, "form", body: .form(QueryParameters(items))))
            #expect(echo.content_type == "application/x-www-form-urlencoded; charset=utf-8")
            #expect(echo.form == Self.awkward.enumerated().map { ["f\($0.offset)", $0.element] })
        }
    }

    @Test("multipart fields and files are parsed back by an independent parser", arguments: TransportKind.allCases)
    func multipart(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            var form = MultipartFormData()
            form.append("Ada ✨", named: "display name")
            form.append("", named: "empty")
            let binary = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            form.append(binary, named: "file", filename: "photo \"1\".jpg", contentType: "image/jpeg")
            form.append(Data("{\"a\":1}".utf8), named: "meta", filename: "meta.json", contentType: "application/json")
            let echo = try await backends.echo().send(Request<Echo>(.post, "upload", body: .multipart(form)))
            #expect(
                echo.multipart == [
                    Echo.Part(name: "display name", filename: nil, content_type: nil, size: 7, text: "Ada ✨"),
                    Echo.Part(name: "empty", filename: nil, content_type: nil, size: 0, text: ""),
                    Echo.Part(name: "file", filename: "photo %221%22.jpg", content_type: "image/jpeg", size: 3000, text: nil),
                    Echo.Part(name: "meta", filename: "meta.json", content_type: "application/json", size: 7, text: "{\"a\":1}"),
                ])
        }
    }

    @Test("JSON bodies arrive as written, common body fields merged", arguments: TransportKind.allCases)
    func json(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.commonParameters.bodyFields["app_id"] = "tests" }
            let body: JSONValue = ["name": "Zoë", "scores": [1, 2.5], "nested": ["ok": true]]
            let echo = try await client.send(Request<Echo>(.patch, "json", body: .json(body)))
            #expect(echo.content_type == "application/json")
            let received = try JSONDecoder().decode(JSONValue.self, from: Data((echo.body_text ?? "").utf8))
            #expect(received == ["name": "Zoë", "scores": [1, 2.5], "nested": ["ok": true], "app_id": "tests"])
        }
    }

    @Test("every method reaches the server", arguments: TransportKind.allCases)
    func methods(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo()
            for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .options] {
                let echo = try await client.send(Request<Echo>(method, "m"))
                #expect(echo.method == method.rawValue)
            }
            try await client.send(Request<Void>(.head, "m"))
        }
    }

    @Test("interpolated path values arrive escaped and stay below the base path", arguments: TransportKind.allCases)
    func paths(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let name = "../a b/ü?x#y"
            let echo = try await backends.echo().send(Request<Echo>(.get, "files/\(name)"))
            #expect(echo.path == "/echo/files/..%2Fa%20b%2F%C3%BC%3Fx%23y")
        }
    }

    @Test("header precedence reaches the wire: endpoint over common", arguments: TransportKind.allCases)
    func headers(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo {
                $0.commonParameters.headerFields[.userAgent] = "CourierTests/1"
                $0.commonParameters.headerFields[.acceptLanguage] = "fr"
            }
            let echo = try await client.send(Request<Echo>(.get, "h", headerFields: [.acceptLanguage: "de"]))
            #expect(echo.header("user-agent") == "CourierTests/1")
            #expect(echo.header("accept-language") == "de")
            #expect(echo.header("accept") == "application/json")
        }
    }

    @Test("raw Data responses", arguments: TransportKind.allCases)
    func dataResponse(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let data = try await backends.echo().send(Request<Data>(.get, "raw"))
            let echo = try JSONDecoder().decode(Echo.self, from: data)
            #expect(echo.path == "/echo/raw")
        }
    }
}
