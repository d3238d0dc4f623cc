import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import Courier

@Suite("Pages and items as sequences: by page number, cursor or Link; bounded and same-origin")
struct PaginationTests {
    struct Page: Decodable, Sendable, Equatable {
        var page: Int
        var totalPages: Int?
        var items: [String]
        var cursor: String?
    }

    /// A server answering every request with what `answer` makes of its target (path and query);
    /// the stub records each request.
    static func server(_ answer: @escaping @Sendable (String) -> StubResponse) -> StubTransport {
        let stub = StubTransport()
        stub.answer(.any) { answer($0.target) }
        return stub
    }

    /// A page: a JSON body, with a `Link` field when given.
    static func page(_ json: String, link: String? = nil) -> StubResponse {
        let page = StubResponse.text(json, contentType: "application/json")
        return link.map { page.header(.link, $0) } ?? page
    }

    static func client(_ server: StubTransport) -> Client {
        Client(baseURL: "https://api.example.com/v1", transport: server) {
            $0.decoder.keyDecodingStrategy = .convertFromSnakeCase
        }
    }

    static func numbered(_ path: String) -> StubResponse {
        let page = URLComponents(string: path)?.queryItems?.first { $0.name == "page" }?.value.flatMap { Int($0) } ?? 1
        return Self.page(#"{"page":\#(page),"total_pages":3,"items":["\#(page)a","\#(page)b"]}"#)
    }

    @Test("page numbers: every page once, up to the total; items in order; a cap stops early")
    func pageNumbers() async throws {
        let server = Self.server(Self.numbered)
        let client = Self.client(server)
        let pagination = Pagination<Page>.pageNumber(current: \.page, total: \.totalPages)
        var pages: [Int] = []
        for try await page in client.pages(Request<Page>(.get, "items", query: ["page": 1, "per_page": 2]), by: pagination) {
            pages.append(page.page)
        }
        #expect(pages == [1, 2, 3])
        #expect(server.requests.map(\.target) == ["/v1/items?page=1&per_page=2", "/v1/items?page=2&per_page=2", "/v1/items?page=3&per_page=2"])
        var items: [String] = []
        for try await item in client.items(Request<Page>(.get, "items"), by: pagination, of: \.items) { items.append(item) }
        #expect(items == ["1a", "1b", "2a", "2b", "3a", "3b"])
        var capped = 0
        for try await _ in client.pages(Request<Page>(.get, "items"), by: pagination, maximumPages: 2) { capped += 1 }
        #expect(capped == 2)
    }

    @Test("a cursor: the next request carries it; no cursor ends; a repeated cursor stops")
    func cursors() async throws {
        let server = Self.server { path in
            switch path {
            case "/v1/feed": Self.page(#"{"page":1,"items":["a"],"cursor":"c2"}"#)
            case "/v1/feed?after=c2": Self.page(#"{"page":2,"items":["b"],"cursor":"c3"}"#)
            default: Self.page(#"{"page":3,"items":["c"],"cursor":"c3"}"#)
            }
        }
        var items: [String] = []
        for try await item in Self.client(server).items(Request<Page>(.get, "feed"), by: .cursor("after", from: \.cursor), of: \.items) {
            items.append(item)
        }
        #expect(items == ["a", "b", "c"], "the third page repeats its cursor: the sequence stops, not loops")
    }

    @Test("Link rel=next, relative or absolute, keeps the endpoint's query; the last page has none")
    func links() async throws {
        let server = Self.server { path in
            switch path {
            case "/v1/repos?per_page=2": Self.page(#"{"page":1,"items":["a"]}"#, link: #"</v1/repos?page=2>; rel="next", </v1/repos?page=3>; rel="last""#)
            case "/v1/repos?page=2&per_page=2": Self.page(#"{"page":2,"items":["b"]}"#, link: #"<https://api.example.com/v1/repos?page=3&per_page=2>; rel="next""#)
            default: Self.page(#"{"page":3,"items":["c"]}"#, link: #"</v1/repos?page=1>; rel="first""#)
            }
        }
        var items: [String] = []
        for try await item in Self.client(server).items(Request<Page>(.get, "repos", query: ["per_page": 2]), by: .link, of: \.items) {
            items.append(item)
        }
        #expect(items == ["a", "b", "c"])
        #expect(server.requests.count == 3)
    }

    @Test(
        "a Link to another origin, or to plain http, is refused; a next that repeats one stops",
        arguments: [
            "<https://evil.example.com/v1/repos?page=2>; rel=next", "<http://api.example.com/v1/repos?page=2>; rel=next",
            "<https://api.example.com:8443/v1/repos?page=2>; rel=next", "<javascript:alert(1)>; rel=next",
        ])
    func crossOrigin(link: String) async {
        let server = Self.server { _ in Self.page(#"{"page":1,"items":["a"]}"#, link: link) }
        let result = await capture {
            for try await _ in Self.client(server).pages(Request<Page>(.get, "repos"), by: .link) {}
        }
        #expect(result.error?.kind == .invalidResponse)
        #expect(server.requests.map(\.target) == ["/v1/repos"])
    }

    @Test("a next that points back at a page already fetched ends the sequence")
    func loop() async throws {
        let server = Self.server { path in Self.page(#"{"page":1,"items":["a"]}"#, link: path == "/v1/repos" ? "</v1/repos?page=2>; rel=next" : "</v1/repos>; rel=next") }
        var count = 0
        for try await _ in Self.client(server).pages(Request<Page>(.get, "repos"), by: .link) { count += 1 }
        #expect(count == 2)
    }

    @Test("JSON Lines: the last line without a newline is read; a malformed line names its number")
    func jsonLines() async {
        let good = Self.server { _ in Self.page("{\"page\":1,\"items\":[]}\n\n{\"page\":2,\"items\":[]}") }
        var pages: [Int] = []
        let result = await capture {
            for try await page in Self.client(good).lines(Request<Page>(.get, "export")) { pages.append(page.page) }
        }
        #expect(result.error == nil)
        #expect(pages == [1, 2])
        let bad = Self.server { _ in Self.page("{\"page\":1,\"items\":[]}\r\n\r\n{\"page\":2,\"items\":[}\n") }
        let failure = await capture {
            for try await _ in Self.client(bad).lines(Request<Page>(.get, "export")) {}
        }
        let error = failure.error
        #expect(error?.kind == .decodingFailed)
        #expect(error?.failureReason?.contains("Line 3") == true)
    }
}
