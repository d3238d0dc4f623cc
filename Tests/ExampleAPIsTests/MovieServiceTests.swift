import Courier
import CourierTesting
import ExampleAPIs
import Foundation
import Testing

@Suite("MovieService over a stub: success, server errors, offline, retry, cancellation, replay")
struct MovieServiceTests {
    static let popular: JSONValue = [
        "page": 1, "total_results": 1, "total_pages": 1,
        "results": [
            [
                "id": 550, "title": "Fight Club", "overview": "An insomniac office worker…", "release_date": "1999-10-15",
                "vote_average": 8.4, "vote_count": 26280, "genre_ids": [18], "popularity": 61.4,
            ]
        ],
    ]

    @Test("the popular movies decode, and the request carries the page and the API key")
    func popular() async throws {
        let stub = StubTransport()
        stub.answer(.get("movie/popular"), with: .json(Self.popular))
        let movies = MovieService(client: .movies(environment: .production, apiKey: "k3y", transport: stub))

        let page = try await movies.popular()

        #expect(page.results.map(\.title) == ["Fight Club"])
        #expect(page.nextPage == nil)
        expectRequest(stub.requests.first, matches: .get("/3/movie/popular").query("page", "1").query("api_key", "k3y"))
    }

    @Test("a server error reaches the app with the server's message")
    func serverError() async throws {
        let stub = StubTransport()
        stub.answer(.get("movie/popular"), with: .json(["status_code": 7, "status_message": "Invalid API key: You must be granted a valid key."], status: .unauthorized))
        let movies = MovieService(client: .movies(environment: .production, apiKey: "wrong", transport: stub))

        let error = await #expect(throws: CourierError.self) { try await movies.popular() }

        #expect(error?.kind == .unauthorized)
        #expect(error?.message == "Invalid API key: You must be granted a valid key.")
        #expect(error?.serverCode == 7)
    }

    @Test("offline, the call fails as not connected")
    func offline() async throws {
        let stub = StubTransport()
        stub.answer(.any, with: .failure(.offline))
        let movies = MovieService(client: .movies(environment: .production, apiKey: "k", transport: stub))

        let error = await #expect(throws: CourierError.self) { try await movies.popular() }

        #expect(error?.kind == .notConnected)
    }

    @Test("a 503 is retried after the back-off, on the test's clock")
    func retryAfter503() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.answer(.get("movie/popular"), with: .status(.serviceUnavailable), .json(Self.popular))
        let client = Client.movies(environment: .production, apiKey: "k", transport: stub)
        client.configuration.clock = clock
        client.configuration.middleware.append(RetryMiddleware(.exponential(maxAttempts: 3)))
        let movies = MovieService(client: client)

        let call = Task { try await movies.popular() }
        #expect(await clock.run(until: { stub.requests.count == 2 }))

        #expect(try await call.value.results.count == 1)
    }

    @Test("cancelling the calling task cancels the call")
    func cancellation() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.answer(.get("movie/popular"), with: .json(Self.popular).delayed(by: .seconds(10)))
        let client = Client.movies(environment: .production, apiKey: "k", transport: stub)
        client.configuration.clock = clock
        let movies = MovieService(client: client)

        let call = Task { try await movies.popular() }
        #expect(await clock.run(until: { stub.requests.count == 1 }))
        call.cancel()

        let error = await #expect(throws: CourierError.self) { try await call.value }
        #expect(error?.kind == .cancelled)
    }

    @Test("pages recorded from a server replay from a HAR file")
    func harReplay() async throws {
        let file = try #require(Bundle.module.url(forResource: "Fixtures/popular-movies", withExtension: "har"))
        let stub = StubTransport(replaying: try HARArchive(contentsOf: file))
        let movies = MovieService(client: .movies(environment: .production, apiKey: "k", transport: stub))

        let pages = try await movies.pages(of: .popular(page: 1), count: 2)

        #expect(pages.map(\.page) == [1, 2])
        #expect(pages.allSatisfy { $0.results.count == 20 })
    }
}
