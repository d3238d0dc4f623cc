import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite("Errors never show a secret, and stay short and on one line")
struct ErrorHygieneTests {
    func request(_ path: String, authorization: String? = "Bearer top-secret") -> HTTPRequest {
        var request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: path)
        if let authorization { request.headerFields[.authorization] = authorization }
        return request
    }

    @Test("description, failure reason and dump hide query values and header values")
    func queryAndHeaders() {
        var error = CourierError(.serverError, message: "Failed for https://api.example.com/x?api_key=k-123")
        error.request = request("/v1/items?api_key=k-123&page=2")
        error.responseHeaderFields = [.setCookie: "session=cookie-secret"]
        var dumped = ""
        dump(error, to: &dumped)
        for text in [error.description, error.failureReason ?? "", error.localizedDescription, dumped, "\(error)", String(reflecting: error)] {
            #expect(!text.contains("k-123"), "\(text)")
            #expect(!text.contains("top-secret"), "\(text)")
            #expect(!text.contains("cookie-secret"), "\(text)")
        }
        #expect(error.description.contains("/v1/items?api_key=***&page=***"))
    }

    @Test("a URL error's user info (the URL again) is not repeated")
    func underlyingURLError() {
        let url = URL(string: "https://user:pw@api.example.com/x?token=t-456")!
        let underlying = NSError(
            domain: NSURLErrorDomain, code: -1004,
            userInfo: [
                NSURLErrorFailingURLErrorKey: url, "NSErrorFailingURLStringKey": url.absoluteString,
            ])
        let error = CourierError(underlying)
        #expect(error.kind == .notConnected)
        #expect(!(error.failureReason ?? "").contains("t-456"))
        #expect(!error.description.contains("pw@"))
    }

    @Test("a base URL's password never appears in its description or in an error")
    func userinfo() async {
        let base = BaseURL("https://ada:hunter2@127.0.0.1:99999/api")
        #expect(!base.description.contains("hunter2"))
        let client = Client(baseURL: base, transport: .urlSession())
        let error = await #expect(throws: CourierError.self) { try await client.send(Request<Data>(.get, "x")) }
        #expect(error?.kind == .invalidRequest)
        for text in [error?.localizedDescription ?? "", error?.description ?? ""] {
            #expect(!text.contains("hunter2"), "\(text)")
        }
    }

    @Test("a server message is one line without terminal escapes, at most 1,000 characters")
    func serverMessage() {
        let hostile = "Line one\nLine two\r\n\u{1B}[31mred\u{1B}[0m and \u{7}bell" + String(repeating: "x", count: 20_000)
        let error = CourierError(.serverError, message: hostile)
        let message = error.message ?? ""
        #expect(!message.contains("\n") && !message.contains("\r") && !message.contains("\u{1B}") && !message.contains("\u{7}"))
        #expect(message.hasPrefix("Line one Line two red and bell"))
        #expect(message.count <= ErrorText.longestMessage + 1)
        var changed = error
        changed.message = String(repeating: "y", count: 5_000_000)
        #expect((changed.message?.count ?? 0) <= ErrorText.longestMessage + 1)
        #expect(error.localizedDescription.count <= ErrorText.longestMessage + 1)
    }

    @Test("a huge number in a response gives a bounded decoding error")
    func hugeNumber() throws {
        let digits = String(repeating: "9", count: 2_000_000)
        let body = Data("{\"id\": \(digits)}".utf8)
        struct Item: Decodable { var id: Int }
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
        let error = #expect(throws: CourierError.self) {
            try ResponseReader.read(
                response,
                body: body,
                decoding: Request<Item>(.get, "x").decoding,
                decoder: ResponseJSONDecoder(settings: JSONDecoder(), implementation: .utf8),
                errorFormat: .standard
            )
        }
        #expect(error?.kind == .decodingFailed)
        #expect((error?.description.count ?? .max) < 4_000)
        #expect((error?.localizedDescription.count ?? .max) < 4_000)
    }

    @Test("metric labels and span names carry the path template, not its values")
    func templates() {
        let secret = "PATHSECRET-4001"
        let path: Path = "password-reset/\(secret)"
        #expect(path.template == "password-reset/{}")
        #expect(RequestBuilder.name(.get, path) == "GET password-reset/{}")
        #expect(Path(stringLiteral: "/movie/popular").template == "movie/popular")
    }
}
