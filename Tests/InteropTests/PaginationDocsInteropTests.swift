import Courier
import Foundation
import ReferenceServer
import TestSupport
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// Checks of "Streams and pages" (Pages), written from the article alone, against static JSON
/// pages nginx serves with `Link` fields (`nginx-locations.conf`, `/pages/`).
@Suite("Against nginx: pages by Link, cursor and page number, as Streams and pages describes them", .requires(.nginx))
struct PaginationDocsInteropTests {
    struct RepoPage: Decodable, Sendable {
        let page: Int
        let totalPages: Int
        let repos: [String]
        let nextCursor: String?
    }

    @Test("Link rel=next, relative and absolute: three pages in order, the endpoint's query kept, the end found, nginx asked each once", arguments: TransportKind.allCases)
    func link(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var pages: [Int] = []
            let walked = await capture {
                for try await page in client.pages(Request<RepoPage>(.get, "pages/link/1.json", query: ["per_page": 2]), by: .link) { pages.append(page.page) }
            }
            #expect(walked.error == nil)
            #expect(pages == [1, 2, 3])
            let third = try await nginx.accessRecord { $0.uri.hasPrefix("/pages/link/3.json") }
            let asked = nginx.accessRecords.filter { $0.uri.hasPrefix("/pages/link/") }.map(\.uri)
            #expect(asked.count == 3)
            #expect(asked.first == "/pages/link/1.json?per_page=2")
            #expect(asked.dropFirst().first.map { $0.hasPrefix("/pages/link/2.json?") && $0.contains("page=2") && $0.contains("per_page=2") } == true)
            #expect(third.uri.contains("page=3") && third.uri.contains("per_page=2"))
        }
    }

    @Test("items(_:by:of:) over Link pages hands out every item in page order", arguments: TransportKind.allCases)
    func items(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var names: [String] = []
            let walked = await capture {
                for try await name in client.items(Request<RepoPage>(.get, "pages/link/1.json"), by: .link, of: \.repos) { names.append(name) }
            }
            #expect(walked.error == nil)
            #expect(names == ["a1", "a2", "b1", "b2", "c1"])
        }
    }

    @Test("a cursor goes as the query parameter until a page has none; nginx records each cursor", arguments: TransportKind.allCases)
    func cursor(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var pages: [Int] = []
            let walked = await capture {
                for try await page in client.pages(Request<RepoPage>(.get, "pages/cursor/feed"), by: .cursor("after", from: \.nextCursor)) { pages.append(page.page) }
            }
            #expect(walked.error == nil)
            #expect(pages == [1, 2, 3])
            _ = try await nginx.accessRecord { $0.uri == "/pages/cursor/feed?after=c3" }
            #expect(nginx.accessRecords.filter { $0.uri.hasPrefix("/pages/cursor/") }.map(\.uri) == ["/pages/cursor/feed", "/pages/cursor/feed?after=c2", "/pages/cursor/feed?after=c3"])
        }
    }

    @Test("page numbers go up to the total, and no page past it is asked for", arguments: TransportKind.allCases)
    func pageNumber(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var names: [String] = []
            let walked = await capture {
                let first = Request<RepoPage>(.get, "pages/numbered", query: ["page": 1])
                for try await name in client.items(first, by: .pageNumber(current: \.page, total: \.totalPages), of: \.repos) { names.append(name) }
            }
            #expect(walked.error == nil)
            #expect(names == ["n1", "n2", "n3"])
            _ = try await nginx.accessRecord { $0.uri == "/pages/numbered?page=3" }
            #expect(nginx.accessRecords.filter { $0.uri.hasPrefix("/pages/numbered") }.count == 3)
        }
    }

    @Test("maximumPages stops the walk: two pages, and nginx never asked for the third", arguments: TransportKind.allCases)
    func maximumPages(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var pages: [Int] = []
            let walked = await capture {
                for try await page in client.pages(Request<RepoPage>(.get, "pages/link/1.json"), by: .link, maximumPages: 2) { pages.append(page.page) }
            }
            #expect(walked.error == nil)
            #expect(pages == [1, 2])
            // A request nginx answers after the walk: its line comes after any of the walk's.
            try await client.send(Request<Void>(.get, "pages/link/3.json", query: ["probe": "after"]))
            _ = try await nginx.accessRecord { $0.uri.contains("probe=after") }
            #expect(nginx.accessRecords.filter { $0.uri.hasPrefix("/pages/link/3.json") && !$0.uri.contains("probe") }.isEmpty)
        }
    }

    @Test("a Link back to a later page already read ends the walk without an error, and nginx is asked for each page once", arguments: TransportKind.allCases)
    func loopToLaterPage(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var pages: [Int] = []
            let walked = await capture {
                for try await page in client.pages(Request<RepoPage>(.get, "pages/loop/1.json"), by: .link) { pages.append(page.page) }
            }
            #expect(walked.error == nil)
            #expect(pages == [1, 2, 3])
            _ = try await nginx.accessRecord { $0.uri == "/pages/loop/3.json" }
            #expect(nginx.accessRecords.filter { $0.uri.hasPrefix("/pages/loop/") }.map(\.uri) == ["/pages/loop/1.json", "/pages/loop/2.json", "/pages/loop/3.json"])
        }
    }

    @Test(
        "a Link back to the first page ends the walk without an error",
        arguments: TransportKind.allCases
    )
    func cycle(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var pages: [Int] = []
            let walked = await capture {
                for try await page in client.pages(Request<RepoPage>(.get, "pages/cycle/a.json"), by: .link) { pages.append(page.page) }
            }
            #expect(walked.error == nil)
            #expect(pages == [1, 2])
            _ = try await nginx.accessRecord { $0.uri == "/pages/cycle/b.json" }
            #expect(nginx.accessRecords.filter { $0.uri == "/pages/cycle/a.json" }.count == 1)
        }
    }

    @Test("a Link to another origin: its page is delivered, then invalidResponse naming that origin, and it is never requested", arguments: TransportKind.allCases)
    func linkToAnotherOrigin(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var pages: [Int] = []
            let walked = await capture {
                for try await page in client.pages(Request<RepoPage>(.get, "pages/elsewhere/1.json"), by: .link) { pages.append(page.page) }
            }
            let httpsPort = try #require(nginx.httpsURL.port)
            #expect(pages == [1])
            #expect(walked.error?.kind == .invalidResponse)
            #expect(walked.error?.message?.contains("127.0.0.1:\(httpsPort)") == true, "\(walked.error?.message ?? "no message")")
            #expect(!nginx.accessRecords.contains { $0.uri.hasPrefix("/pages/link/") })
        }
    }

    #if AsyncHTTPClient
    @Test("from https, a Link to plain http on the same host and port is refused after its page, and never requested")
    func linkDowngrade() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try Self.writePages(nginx)
            let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [nginx.certificates.rootCertificatePEM]))
            let client = Client(baseURL: BaseURL(nginx.httpsURL), transport: transport)
            var pages: [Int] = []
            let walked = await capture {
                for try await page in client.pages(Request<RepoPage>(.get, "pages/downgrade/1.json"), by: .link) { pages.append(page.page) }
            }
            try await transport.shutdown()
            let httpsPort = try #require(nginx.httpsURL.port)
            #expect(pages == [1])
            #expect(walked.error?.kind == .invalidResponse)
            #expect(walked.error?.message?.contains("http://127.0.0.1:\(httpsPort)") == true, "\(walked.error?.message ?? "no message")")
            #expect(!nginx.accessRecords.contains { $0.uri.hasPrefix("/pages/link/") })
        }
    }
    #endif

    /// The pages `nginx-locations.conf`'s `/pages/` locations serve.
    private static func writePages(_ nginx: NginxServer) throws {
        func page(_ number: Int, _ repos: [String], total: Int = 3, cursor: String? = nil) -> String {
            let names = repos.map { "\"\($0)\"" }.joined(separator: ",")
            return #"{"page":\#(number),"totalPages":\#(total),"repos":[\#(names)],"nextCursor":\#(cursor.map { "\"\($0)\"" } ?? "null")}"#
        }
        try nginx.writeFile("pages/link/1.json", page(1, ["a1", "a2"]))
        try nginx.writeFile("pages/link/2.json", page(2, ["b1", "b2"]))
        try nginx.writeFile("pages/link/3.json", page(3, ["c1"]))
        try nginx.writeFile("pages/cycle/a.json", page(1, ["a"], total: 9))
        try nginx.writeFile("pages/cycle/b.json", page(2, ["b"], total: 9))
        for number in 1...3 {
            try nginx.writeFile("pages/loop/\(number).json", page(number, ["l\(number)"], total: 9))
        }
        try nginx.writeFile("pages/elsewhere/1.json", page(1, ["e"]))
        try nginx.writeFile("pages/downgrade/1.json", page(1, ["d"]))
        try nginx.writeFile("pages/cursor/feed-.json", page(1, ["f1"], cursor: "c2"))
        try nginx.writeFile("pages/cursor/feed-c2.json", page(2, ["f2"], cursor: "c3"))
        try nginx.writeFile("pages/cursor/feed-c3.json", page(3, ["f3"]))
        for number in 1...3 {
            try nginx.writeFile("pages/numbered/\(number).json", page(number, ["n\(number)"]))
        }
    }
}
