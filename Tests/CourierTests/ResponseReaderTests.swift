import Foundation
import Testing

@testable import Courier

@Suite("Reading responses: status mapping, error bodies, decoding (no network)")
struct ResponseReaderTests {
    func response(_ code: Int, contentType: String? = "application/json") -> HTTPResponse {
        var response = HTTPResponse(status: .init(code: code))
        if let contentType { response.headerFields[.contentType] = contentType }
        return response
    }

    func read<Response>(
        _ request: Request<Response>,
        status: Int,
        body: String,
        contentType: String? = "application/json",
        format: ErrorBodyFormat = .standard
    ) throws(CourierError) -> Response {
        try ResponseReader.read(
            response(status, contentType: contentType),
            body: Data(body.utf8),
            decoding: request.decoding,
            decoder: ResponseJSONDecoder(settings: JSONDecoder(), implementation: .utf8),
            errorFormat: format
        )
    }

    @Test(
        "each status class maps to its kind",
        arguments: [
            (400, CourierError.Kind.clientError), (401, .unauthorized), (403, .forbidden), (404, .notFound),
            (408, .timedOut), (409, .clientError), (422, .clientError), (429, .rateLimited), (500, .serverError),
            (502, .serverError), (503, .serverError), (599, .serverError), (304, .unexpectedStatus), (101, .unexpectedStatus),
        ])
    func statusKinds(code: Int, kind: CourierError.Kind) {
        let error = #expect(throws: CourierError.self) { try read(Request<Data>(.get, "x"), status: code, body: "") }
        #expect(error?.kind == kind)
        #expect(error?.status?.code == code)
    }

    @Test("2xx statuses are success", arguments: [200, 201, 202, 204, 206])
    func success(code: Int) throws {
        try read(Request<Void>(.get, "x"), status: code, body: "")
    }

    @Test("the social backend's {message} is the error's description")
    func messageFormat() {
        let error = #expect(throws: CourierError.self) {
            try read(Request<Data>(.get, "x"), status: 404, body: #"{"message": "User 99 not found"}"#, format: .message)
        }
        #expect(error?.kind == .notFound)
        #expect(error?.message == "User 99 not found")
        #expect(error?.localizedDescription == "User 99 not found")
    }

    @Test("the movie backend's {status_message, status_code} keeps message and code")
    func tmdbFormat() {
        let body = #"{"status_code": 7, "status_message": "Invalid API key: You must be granted a valid key.", "success": false}"#
        let error = #expect(throws: CourierError.self) {
            try read(Request<Data>(.get, "x"), status: 401, body: body, format: .tmdb)
        }
        #expect(error?.kind == .unauthorized)
        #expect(error?.serverCode == 7)
        #expect(error?.localizedDescription == "Invalid API key: You must be granted a valid key.")
    }

    @Test(
        "a format that does not match leaves a plain description",
        arguments: [
            "", "<html>Bad Gateway</html>", #"{"unrelated": true}"#, "[1,2]", "{not json",
        ])
    func unmatchedFormat(body: String) {
        let error = #expect(throws: CourierError.self) {
            try read(Request<Data>(.get, "x"), status: 502, body: body, format: .message)
        }
        #expect(error?.message == nil)
        #expect(error?.localizedDescription == "The server had a problem (status 502). Please try again later.")
    }

    @Test(
        "the standard format reads common shapes",
        arguments: [
            (#"{"message": "m1"}"#, "m1"), (#"{"error": "m2"}"#, "m2"), (#"{"error": {"message": "m3"}}"#, "m3"),
            (#"{"detail": "m4", "title": "t"}"#, "m4"), (#"{"status_message": "m5", "status_code": 3}"#, "m5"),
        ])
    func standardFormat(body: String, message: String) {
        let error = #expect(throws: CourierError.self) { try read(Request<Data>(.get, "x"), status: 400, body: body) }
        #expect(error?.message == message)
    }

    @Test("a short text/plain body is the message in the standard format")
    func plainText() {
        let error = #expect(throws: CourierError.self) {
            try read(Request<Data>(.get, "x"), status: 503, body: "Down for maintenance\n", contentType: "text/plain")
        }
        #expect(error?.message == "Down for maintenance")
    }

    @Test("a custom format parses its own shape")
    func customFormat() {
        let format = ErrorBodyFormat.custom { body, response in
            ServerErrorDetails(message: "status \(response.status.code): \(String(decoding: body, as: UTF8.self))", code: 1)
        }
        let error = #expect(throws: CourierError.self) { try read(Request<Data>(.get, "x"), status: 418, body: "teapot", format: format) }
        #expect(error?.message == "status 418: teapot")
        #expect(error?.serverCode == 1)
    }

    @Test("a decoding failure names the key path of the bad value")
    func typeMismatchPath() {
        let body = #"{"books": [{"title": "A", "pages": 10}, {"title": "B", "pages": "many"}]}"#
        let error = #expect(throws: CourierError.self) { try read(Request<Shelf>(.get, "x"), status: 200, body: body) }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.codingPath == "books[1].pages")
        #expect(error?.localizedDescription == "The server's response could not be read.")
        #expect(error?.failureReason?.contains("books[1].pages") == true)
    }

    @Test("a missing key names the key's full path")
    func missingKeyPath() {
        let error = #expect(throws: CourierError.self) {
            try read(Request<Shelf>(.get, "x"), status: 200, body: #"{"books": [{"title": "A"}]}"#)
        }
        #expect(error?.codingPath == "books[0].pages")
        #expect(error?.message == "The key \"pages\" is missing.")
    }

    @Test("null where a value is required is a decoding error")
    func nullValue() {
        let error = #expect(throws: CourierError.self) {
            try read(Request<Account>(.get, "x"), status: 200, body: #"{"id": 1, "name": null}"#)
        }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.codingPath == "name")
    }

    @Test("a 200 with malformed JSON is a decoding error, not a crash")
    func malformedJSON() {
        let error = #expect(throws: CourierError.self) {
            try read(Request<Account>(.get, "x"), status: 200, body: #"{"id": 1, "name": "#)
        }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.message == "The response is not valid JSON.")
    }

    @Test("a 200 with an empty body for a typed response is a decoding error")
    func emptyBodyTyped() {
        let error = #expect(throws: CourierError.self) { try read(Request<Account>(.get, "x"), status: 200, body: "") }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.message?.contains("empty body") == true)
    }

    @Test("a 204 for a Void response is success")
    func noContentForVoid() throws {
        try read(Request<Void>(.delete, "x"), status: 204, body: "", contentType: nil)
    }

    @Test("a wrong content type for a JSON response is an invalid response")
    func wrongContentType() {
        let error = #expect(throws: CourierError.self) {
            try read(Request<Account>(.get, "x"), status: 200, body: "<html></html>", contentType: "text/html; charset=utf-8")
        }
        #expect(error?.kind == .invalidResponse)
    }

    @Test(
        "JSON media types with parameters or a +json suffix are accepted",
        arguments: [
            "application/json", "application/json; charset=utf-8", "Application/JSON", "application/problem+json", "text/json",
        ])
    func jsonMediaTypes(contentType: String) throws {
        let account = try read(Request<Account>(.get, "x"), status: 200, body: #"{"id": 1, "name": "A"}"#, contentType: contentType)
        #expect(account == Account(id: 1, name: "A"))
    }

    @Test(
        "what counts as a JSON media type: case, spaces and parameters aside",
        arguments: [
            ("application/json", true), (" Application/JSON ; charset=utf-8", true), ("\tTEXT/json", true),
            ("application/vnd.api+json", true), ("APPLICATION/PROBLEM+JSON;x=1", true),
            ("application/jsonp", false), ("application/json5", false), ("text/html", false), ("+json", false),
            ("application/javascript", false), ("", false), (";application/json", false),
        ])
    func jsonMediaTypeRule(contentType: String, isJSON: Bool) {
        #expect(ResponseReader.isJSON(contentType) == isJSON)
    }

    @Test("Data responses return the bytes whatever the content type")
    func dataResponse() throws {
        let data = try read(Request<Data>(.get, "x"), status: 200, body: "<svg/>", contentType: "image/svg+xml")
        #expect(data == Data("<svg/>".utf8))
    }

    @Test("dynamic JSON responses decode any JSON")
    func jsonValueResponse() throws {
        let value = try read(Request<JSONValue>(.get, "x"), status: 200, body: #"{"a": [1, 2.5, "x", true, null]}"#)
        #expect(value["a"]?[1]?.doubleValue == 2.5)
        #expect(value["a"]?[4] == .null)
    }

    @Test("a mapped request transforms the decoded value")
    func mapped() throws {
        let names = Request<Shelf>(.get, "x").map { $0.books.map(\.title) }
        let body = #"{"books": [{"title": "A", "pages": 1}, {"title": "B", "pages": 2}]}"#
        #expect(try read(names, status: 200, body: body) == ["A", "B"])
    }
}
