import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

/// Server-sent events, JSON Lines and pages against the reference server, on every transport.
@Suite("Event streams, JSON Lines and pages over real sockets", .timingSensitive)
struct EventStreamScenarioTests {
    struct Tick: Decodable, Equatable, Sendable {
        var n: Int
    }

    struct Record: Decodable, Sendable {
        var id: Int
        var title: String
    }

    struct Stats: Decodable, Sendable {
        var lastEventIDs: [String?]
        var closedByClient: Int
    }

    static func client(_ backends: ReferenceBackends) -> Client {
        Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
    }

    static var quickReconnect: EventStreamOptions {
        var options = EventStreamOptions()
        options.reconnectDelay = .milliseconds(10)
        options.backoff = Backoff(base: .milliseconds(10), maximum: .milliseconds(50))
        return options
    }

    @Test("N events in order across forced disconnects, each reconnection sending Last-Event-ID", arguments: TransportKind.allCases)
    func resumesAcrossDisconnects(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Self.client(backends)
            var ticks: [Int] = []
            var ids: [String?] = []
            let ticker = Request<Tick>(.get, "events/ticker", query: ["count": 10, "disconnect_after": 3, "end": "204"])
            for try await event in client.events(ticker, options: Self.quickReconnect) {
                ticks.append(event.data.n)
                ids.append(event.id)
                #expect(event.type == "tick")
            }
            #expect(ticks == Array(1...10), "none repeated, none lost")
            #expect(ids == (1...10).map { String($0) })
            let stats = try await client.send(Request<Stats>(.get, "events/stats"))
            #expect(stats.lastEventIDs == [nil, "3", "6", "9", "10"])
        }
    }

    @Test("a consumer that stops closes the connection: the server sees it, and nothing reconnects", arguments: TransportKind.allCases)
    func stoppingCloses(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Self.client(backends)
            var seen = 0
            for try await _ in client.events(Request<Tick>(.get, "events/endless"), options: Self.quickReconnect) {
                seen += 1
                if seen == 3 { break }
            }
            var stats = try await client.send(Request<Stats>(.get, "events/stats"))
            for _ in 0..<200 where stats.closedByClient == 0 {
                try await Task.sleep(for: .milliseconds(25))
                stats = try await client.send(Request<Stats>(.get, "events/stats"))
            }
            #expect(stats.closedByClient == 1)
            #expect(stats.lastEventIDs.count == 1, "no reconnection after the consumer stopped")
        }
    }

    @Test("a 204 ends the stream; a wrong Content-Type fails it; neither reconnects", arguments: TransportKind.allCases)
    func endings(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Self.client(backends)
            var count = 0
            for try await _ in client.events(Request<Tick>(.get, "events/ticker", query: ["count": 0, "end": "204"])) { count += 1 }
            #expect(count == 0)
            let wrongType = await capture {
                for try await _ in client.events(Request<Tick>(.get, "events/stats"), options: Self.quickReconnect) {}
            }
            #expect(wrongType.error?.kind == .invalidResponse)
            let stats = try await client.send(Request<Stats>(.get, "events/stats"))
            #expect(stats.lastEventIDs.count == 1, "the 204 was asked once")
        }
    }

    @Test("JSON Lines: 20,000 records decoded one by one, in order", arguments: TransportKind.allCases)
    func jsonLines(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            var next = 1
            for try await record in Self.client(backends).lines(Request<Record>(.get, "export/lines", query: ["count": 20_000])) {
                #expect(record.id == next)
                next += 1
            }
            #expect(next == 20_001)
        }
    }

    @Test("all popular movies, page by page through Link: every movie once; a cap stops early", arguments: TransportKind.allCases)
    func allPopular(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let movies = MovieService(client: backends.movies())
            var ids: [Int] = []
            for try await movie in movies.allPopular() { ids.append(movie.id) }
            let first = try await movies.popular(page: 1)
            #expect(ids.count == first.totalResults)
            #expect(Set(ids).count == ids.count)
            var capped = 0
            for try await _ in movies.allPopular(maximumPages: 2) { capped += 1 }
            #expect(capped == min(40, first.totalResults))
        }
    }

    struct NumberedPage: Decodable, Sendable {
        var page: Int
        var items: [Int]
    }

    @Test("a page whose Link leads to another origin is delivered, then the sequence says why it stops", arguments: TransportKind.allCases)
    func refusedLinkKeepsPage(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let first = Request<NumberedPage>(.get, "pages/away", query: ["last": 4, "away_from": 2, "away_to": "http://other.invalid:9"])
            var delivered: [Int] = []
            let result = await capture {
                for try await page in client.pages(first, by: .link) { delivered.append(page.page) }
            }
            #expect(delivered == [1, 2])
            #expect(result.error?.kind == .invalidResponse)
            #expect(result.error?.localizedDescription.contains("http://other.invalid:9") == true)
            #expect(await backends.server.hits(forKey: "pages-away") == 2)
        }
    }

    @Test("a plain-http Link on the base URL's own origin is followed to the last page", arguments: TransportKind.allCases)
    func sameOriginPlainHTTPLink(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let first = Request<NumberedPage>(.get, "pages/home", query: ["last": 3, "away_from": 1, "away_to": backends.server.baseURL])
            var delivered: [Int] = []
            for try await page in client.pages(first, by: .link) { delivered.append(page.page) }
            #expect(delivered == [1, 2, 3])
        }
    }
}
