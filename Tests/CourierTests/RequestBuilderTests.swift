import Courier
import Foundation
import Testing

@Suite("Building requests from endpoints (no network)")
struct RequestBuilderTests {
    let client = Client(configuration: .test)

    @Test(
        "every method is sent as given",
        arguments: [
            HTTPRequest.Method.get, .post, .put, .patch, .delete, .head, .options,
        ])
    func methods(method: HTTPRequest.Method) throws {
        let prepared = try client.prepare(Request<Void>(method, "items/1"))
        #expect(prepared.request.method == method)
        #expect(prepared.request.scheme == "https")
        #expect(prepared.request.authority == "api.example.com")
        #expect(prepared.request.path == "/v2/items/1")
    }

    @Test("query parameters follow the path, common ones after the endpoint's")
    func query() throws {
        let client = Client(baseURL: "http://127.0.0.1:8080/3") { $0.commonParameters.query["api_key"] = "K" }
        let prepared = try client.prepare(Request<Data>(.get, "movie/popular", query: ["page": 2]))
        #expect(prepared.request.path == "/3/movie/popular?page=2&api_key=K")
        #expect(prepared.url?.absoluteString == "http://127.0.0.1:8080/3/movie/popular?page=2&api_key=K")
    }

    @Test("an endpoint's query value wins over a common one of the same name")
    func queryPrecedence() throws {
        let client = Client(baseURL: "http://h") { $0.commonParameters.query["lang"] = "en" }
        let prepared = try client.prepare(Request<Data>(.get, "x", query: ["lang": "fr"]))
        #expect(prepared.request.path == "/x?lang=fr")
    }

    @Test("an endpoint's header field wins over a common one; others are kept")
    func headerPrecedence() throws {
        let client = Client(baseURL: "http://h") {
            $0.commonParameters.headerFields[.custom] = "common"
            $0.commonParameters.headerFields[.userAgent] = "Courier-Tests"
        }
        let prepared = try client.prepare(Request<Data>(.get, "x", headerFields: [.custom: "endpoint"]))
        #expect(prepared.request.headerFields[.custom] == "endpoint")
        #expect(prepared.request.headerFields[.userAgent] == "Courier-Tests")
    }

    @Test("JSON responses ask for JSON unless the endpoint says otherwise")
    func acceptHeader() throws {
        #expect(try client.prepare(Request<Account>(.get, "me")).request.headerFields[.accept] == "application/json")
        #expect(try client.prepare(Request<Data>(.get, "raw")).request.headerFields[.accept] == nil)
        let custom = Request<Account>(.get, "me").header(.accept, "application/vnd.api+json")
        #expect(try client.prepare(custom).request.headerFields[.accept] == "application/vnd.api+json")
    }

    @Test("a JSON body from an Encodable value, with the client's encoder")
    func jsonBody() throws {
        let client = Client(baseURL: "http://h") { $0.encoder.keyEncodingStrategy = .convertToSnakeCase }
        struct NewUser: Encodable, Sendable { var displayName: String }
        let prepared = try client.prepare(Request<Void>(.post, "users", body: .json(NewUser(displayName: "Ada"))))
        #expect(prepared.body == Data(#"{"display_name":"Ada"}"#.utf8))
        #expect(prepared.request.headerFields[.contentType] == "application/json")
    }

    @Test("a JSON body from a dynamic JSON value")
    func jsonValueBody() throws {
        let body: JSONValue = ["tags": ["a", "b"], "count": 2, "ok": true, "none": nil]
        let prepared = try client.prepare(Request<Void>(.put, "x", body: .json(body)))
        let decoded = try JSONDecoder().decode(JSONValue.self, from: prepared.body ?? Data())
        #expect(decoded == body)
    }

    @Test("common body fields join JSON object bodies; the endpoint's own values win")
    func commonBodyFields() throws {
        let client = Client(baseURL: "http://h") {
            $0.commonParameters.bodyFields = ["app_id": "demo", "name": "common"]
        }
        let prepared = try client.prepare(Request<Void>(.post, "x", body: .json(["name": "own"] as JSONValue)))
        let decoded = try JSONDecoder().decode(JSONValue.self, from: prepared.body ?? Data())
        #expect(decoded == ["app_id": "demo", "name": "own"])
        let get = try client.prepare(Request<Void>(.get, "x"))
        #expect(get.body == nil)
    }

    @Test("a form body is URL-encoded with spaces as plus")
    func formBody() throws {
        let prepared = try client.prepare(Request<Void>(.post, "login", body: .form(["user": "a b", "pass": "p&w=1"])))
        #expect(prepared.body == Data("user=a+b&pass=p%26w%3D1".utf8))
        #expect(prepared.request.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test("a multipart body names its boundary in the content type")
    func multipartBody() throws {
        var form = MultipartFormData()
        form.append("hello", named: "greeting")
        form.append(Data([0, 1, 2]), named: "file", filename: "a.bin")
        let prepared = try client.prepare(Request<Void>(.post, "upload", body: .multipart(form)))
        let contentType = try #require(prepared.request.headerFields[.contentType])
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let text = String(decoding: prepared.body ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix("--\(boundary)\r\nContent-Disposition: form-data; name=\"greeting\"\r\n\r\nhello\r\n"))
        #expect(text.contains("Content-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"))
        #expect(text.hasSuffix("--\(boundary)--\r\n"))
    }

    @Test("an endpoint's Content-Type is kept over the encoder's")
    func contentTypePrecedence() throws {
        let request = Request<Void>(.post, "x", body: .json(["a": 1] as JSONValue), headerFields: [.contentType: "application/merge-patch+json"])
        #expect(try client.prepare(request).request.headerFields[.contentType] == "application/merge-patch+json")
    }

    @Test("raw data bodies carry their own content type")
    func dataBody() throws {
        let prepared = try client.prepare(Request<Void>(.put, "blob", body: .data(Data([9, 8]), contentType: "image/png")))
        #expect(prepared.body == Data([9, 8]))
        #expect(prepared.request.headerFields[.contentType] == "image/png")
    }

    @Test("an endpoint's base URL overrides the client's")
    func baseURLOverride() throws {
        var request = Request<Data>(.get, "ping")
        request.baseURL = "https://status.example.com:8443/health"
        let prepared = try client.prepare(request)
        #expect(prepared.request.authority == "status.example.com:8443")
        #expect(prepared.request.path == "/health/ping")
    }

    @Test(
        "the environment switch moves every endpoint",
        arguments: [
            (ServerEnvironment.production, "https://api.example.com/v1/items"),
            (.staging, "https://staging.example.com/v1/items"),
            (.qa, "http://qa.internal:8080/v1/items"),
            (.custom("http://127.0.0.1:9000"), "http://127.0.0.1:9000/v1/items"),
        ])
    func environments(environment: ServerEnvironment, expected: String) throws {
        let backend = Backend(
            "items",
            production: "https://api.example.com/v1",
            staging: "https://staging.example.com/v1",
            qa: "http://qa.internal:8080/v1"
        )
        let client = Client(backend: backend, environment: environment)
        #expect(try client.prepare(Request<Data>(.get, "items")).url?.absoluteString == expected)
    }

    @Test("a backend without a URL for the environment refuses to send")
    func missingEnvironment() {
        let client = Client(backend: Backend("only-prod", production: "https://p.example.com"), environment: .qa)
        #expect(throws: CourierError.self) { try client.prepare(Request<Data>(.get, "x")) }
        do {
            _ = try client.prepare(Request<Data>(.get, "x"))
        } catch {
            #expect(error.kind == .invalidRequest)
            #expect(error.message == "The only-prod backend has no base URL for the qa environment.")
        }
    }

    @Test(
        "base URLs without scheme or host are invalid requests, not crashes",
        arguments: [
            "api.example.com/v1", "ftp://files.example.com", "http://", "", "https://h/x?y=1", "not a url at all",
        ])
    func invalidBaseURL(text: String) {
        let client = Client(baseURL: BaseURL(text))
        let error = #expect(throws: CourierError.self) { try client.prepare(Request<Data>(.get, "x")) }
        #expect(error?.kind == .invalidRequest)
    }

    @Test("a path segment of .. or a literal ? is refused before sending")
    func hostilePaths() {
        let dots = ".."
        let climbing = Request<Data>(.get, "files/\(dots)/secret")
        #expect((#expect(throws: CourierError.self) { try client.prepare(climbing) })?.kind == .invalidRequest)
        let queryInPath = Request<Data>(.get, "movie/popular?page=2")
        #expect((#expect(throws: CourierError.self) { try client.prepare(queryInPath) })?.kind == .invalidRequest)
        let slashInID = "../../admin"
        let escaped = try? client.prepare(Request<Data>(.get, "users/\(slashInID)"))
        #expect(escaped?.request.path == "/v2/users/..%2F..%2Fadmin")
    }

    @Test(
        "only a whole segment of . or .. is refused; leading slashes are dropped",
        arguments: [
            ("./x", false), ("x/.", false), ("x/./y", false), ("x/../y", false), ("..", false),
            ("...", true), ("x/.../y", true), (".x/..y", true), ("x//y/", true), ("//x/.hidden", true),
        ])
    func dotSegments(path: String, accepted: Bool) throws {
        let literal = Path(stringLiteral: path)
        if accepted {
            let prepared = try client.prepare(Request<Data>(.get, literal))
            #expect(prepared.request.path == "/v2/" + path.drop(while: { $0 == "/" }))
        } else {
            let error = #expect(throws: CourierError.self) { try client.prepare(Request<Data>(.get, literal)) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.localizedDescription.contains("segment") == true)
        }
    }

    @Test("a literal ? or # in a path names the character that was refused")
    func queryCharacterInPath() {
        for (path, character) in [("movie?page=2", "?"), ("movie#top", "#")] {
            let error = #expect(throws: CourierError.self) { try client.prepare(Request<Data>(.get, Path(stringLiteral: path))) }
            #expect(error?.localizedDescription.hasPrefix("The path contains \"\(character)\"") == true)
        }
    }

    @Test("a failed local check refuses the request with its message")
    func validation() {
        let email = ""
        let request = Request<Data>(.post, "authenticate").requiring(!email.isEmpty, "Email and Password Required")
        let error = #expect(throws: CourierError.self) { try client.prepare(request) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.localizedDescription == "Email and Password Required")
    }

    @Test("a body that cannot be encoded is an encoding error", arguments: [Double.nan, .infinity])
    func nonFiniteDouble(value: Double) {
        let request = Request<Void>(.post, "x", body: .json(["value": value]))
        #expect((#expect(throws: CourierError.self) { try client.prepare(request) })?.kind == .encodingFailed)
    }

    @Test("an Encodable that throws is an encoding error")
    func throwingEncodable() {
        struct Refuses: Encodable, Sendable {
            struct Nope: Error {}
            func encode(to encoder: any Encoder) throws { throw Nope() }
        }
        let error = #expect(throws: CourierError.self) { try client.prepare(Request<Void>(.post, "x", body: .json(Refuses()))) }
        #expect(error?.kind == .encodingFailed)
    }

    @Test("timeouts: the endpoint's wins over the client's")
    func timeouts() throws {
        let client = Client(baseURL: "http://h") { $0.timeout = .seconds(7) }
        #expect(try client.prepare(Request<Data>(.get, "x")).timeout == .seconds(7))
        #expect(try client.prepare(Request<Data>(.get, "x").timeout(.milliseconds(250))).timeout == .milliseconds(250))
    }

    @Test("changing the client's configuration changes every later request")
    func liveConfiguration() throws {
        let client = Client(baseURL: "http://old.example.com")
        client.configuration.baseURL = "http://new.example.com"
        client.configuration.commonParameters.headerFields[.authorization] = "JWT abc"
        let prepared = try client.prepare(Request<Data>(.get, "x"))
        #expect(prepared.request.authority == "new.example.com")
        #expect(prepared.request.headerFields[.authorization] == "JWT abc")
    }

    @Test("IPv6 hosts keep their brackets")
    func ipv6() throws {
        let client = Client(baseURL: "http://[::1]:8080")
        #expect(try client.prepare(Request<Data>(.get, "x")).request.authority == "[::1]:8080")
    }
}
