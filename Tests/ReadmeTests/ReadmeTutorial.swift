// The README's tutorial, verbatim: `ReadmeTests` checks that every Swift block of README.md appears
// here, and runs it against the reference server.
// Laid out as the documentation shows it, comments aligned:
// swift-format-ignore-file
import Courier
#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif
import CourierTesting
import Foundation
import Logging
import Testing

struct Movie: Decodable, Sendable {
    let id: Int
    let title: String
    let voteAverage: Double
}

struct MoviePage: Decodable, Sendable {
    let page: Int
    let totalPages: Int
    let results: [Movie]
}

enum MovieAPI: Endpoint {
    case popular(page: Int)
    case nowPlaying(page: Int)

    var request: Request<MoviePage> {
        switch self {
        case .popular(let page): Request(.get, "movie/popular", query: ["page": page])
        case .nowPlaying(let page): Request(.get, "movie/now_playing", query: ["page": page])
        }
    }
}

extension Backend {
    static let movies = Backend(
        "movies",
        production: "https://api.themoviedb.org/3",
        staging: "https://staging.example.com/3"
    )
}

func makeMovieClient(environment: ServerEnvironment, apiKey: String, transport: any Transport = .urlSession()) -> Client {
    Client(backend: .movies, environment: environment, transport: transport) {
        $0.errorFormat = .tmdb                                  // {"status_message": …, "status_code": …}
        $0.commonParameters.query["api_key"] = apiKey           // sent with every request
        $0.decoder.keyDecodingStrategy = .convertFromSnakeCase  // vote_average → voteAverage
        $0.timeout = .seconds(15)
    }
}

struct MovieService: Sendable {
    let client: Client

    func popular(page: Int = 1) async throws(CourierError) -> [Movie] {
        try await client.send(MovieAPI.popular(page: page)).results
    }

    @discardableResult
    func popular(
        page: Int,
        completion: @escaping @MainActor @Sendable (Result<MoviePage, CourierError>) -> Void
    ) -> RequestHandle {
        client.send(MovieAPI.popular(page: page), completion: completion)
    }
}

func popularTitles(_ movies: MovieService) async -> [String] {
    do {
        return try await movies.popular().map(\.title)
    } catch {
        switch error.kind {
        case .notConnected: print("Offline:", error.localizedDescription)       // "No Internet connection."
        case .unauthorized: print("Bad API key:", error.localizedDescription)   // the server's own message
        case .cancelled: break
        default: print(error.localizedDescription)
        }
        return []
    }
}

@MainActor
func loadSecondPage(_ movies: MovieService) -> RequestHandle {
    movies.popular(page: 2) { result in
        switch result {
        case .success(let page): print("page \(page.page) of \(page.totalPages)")
        case .failure(let error): print(error.localizedDescription)   // after cancel(): "The request was cancelled."
        }
    }
}

func cancelling(_ movies: MovieService) async {
    let task = Task { try await movies.popular() }
    task.cancel()                  // closes the connection; the call throws kind .cancelled

    let handle = await loadSecondPage(movies)
    handle.cancel()                // the completion reports .cancelled, never a success

    movies.client.cancelAll()      // or stop everything this client has in flight
}

func oneOffCall(_ client: Client) async throws(CourierError) -> JSONValue {
    let request = Request<JSONValue>(.get, "movie/now_playing", query: ["page": 1, "region": "GB"])
    return try await client.send(request)   // untyped JSON; no model needed
}

func makeSocialClient(session: AuthenticationSession, logger: Logger) -> Client {
    Client(baseURL: "https://social.example.com/api/v1") {
        $0.middleware = [
            ReachabilityMiddleware(),                                   // offline: fail at once
            AuthenticationMiddleware(session, scheme: .jwt),            // token added; one refresh on 401
            RateLimitMiddleware(.perHost(5, per: .seconds(1))),         // excess requests wait their turn
            RetryMiddleware(.exponential(maxAttempts: 3)),              // idempotent requests only
            LoggingMiddleware(logger: logger),                          // one line per attempt, secrets redacted
            MetricsMiddleware(),
            TracingMiddleware(),                                        // span + traceparent
        ]
    }
}

func makeSession(auth: Client, tokensFile: URL) -> AuthenticationSession {
    AuthenticationSession(store: FileTokenStore(url: tokensFile)) { expired in
        let renewed = try await auth.send(
            Request<RenewedTokens>(.post, "token/refresh", body: .json(["refresh_token": expired.refreshToken ?? ""]))
                .withoutAuthentication()
        )
        return AuthTokens(accessToken: renewed.token, refreshToken: renewed.refreshToken)
    }
}

struct RenewedTokens: Decodable, Sendable {
    let token: String
    let refreshToken: String
}

// MARK: Files, streams and progress

func saveTrailer(_ client: Client, to destination: URL) async throws(CourierError) -> Int64 {
    let file = try await client.download(Request<Data>(.get, "files/5000000"), to: destination) { progress in
        print("\(Int((progress.fractionCompleted ?? 0) * 100))%")
    }
    return file.byteCount
}

func uploadRecording(_ client: Client, from recording: URL) async throws(CourierError) {
    try await client.send(Request<Void>(.put, "files", body: .file(recording, contentType: "video/mp4")))
}

func countBytes(_ client: Client) async throws -> Int {
    var count = 0
    for try await chunk in try await client.stream(Request<Data>(.get, "files/1000000")) {
        count += chunk.count
    }
    return count
}

// MARK: TLS: custom roots and public-key pins

#if AsyncHTTPClient
func makePinnedClient(rootPEM: String, currentKey: String, backupKey: String) throws -> (Client, HTTPClientTransport) {
    let transport = try HTTPClientTransport(trust: ServerTrust(
        additionalRootCertificates: [rootPEM],
        pins: ["api.example.com": [try PublicKeyPin(sha256Base64: currentKey), try PublicKeyPin(sha256Base64: backupKey)]]
    ))
    // The transport owns its HTTPClients: call `try await transport.shutdown()` when done.
    return (Client(baseURL: "https://api.example.com/v1", transport: transport), transport)
}
#endif

// MARK: Reading JSON

func makeLegacyClient(base: BaseURL) -> Client {
    Client(baseURL: base) {
        $0.decoder.dateDecodingStrategy = .iso8601     // honoured by both decoders
        $0.jsonDecoderImplementation = .foundation     // JSONDecoder for every response
    }
}

let oneReport = Request<JSONValue>(.get, "reports/1").decoded(with: .foundation)   // or per endpoint

func decodeMovie(_ data: Data) throws -> Movie {
    var decoder = UTF8JSONDecoder()                    // usable on its own, too
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(Movie.self, from: data)
}

struct TickerEvent: Decodable, Sendable {
    let n: Int
}

func liveTicks(_ client: Client) async throws -> [Int] {
    var ticks: [Int] = []
    let ticker = Request<TickerEvent>(.get, "events/ticker", query: ["count": 5, "disconnect_after": 2, "end": "204"])
    for try await event in client.events(ticker) {   // reconnects with Last-Event-ID until the 204
        ticks.append(event.data.n)
    }
    return ticks
}

func everyPopularTitle(_ movies: Client) async throws -> [String] {
    var titles: [String] = []
    for try await page in movies.pages(MovieAPI.popular(page: 1), by: .link) {   // Link: rel="next"
        titles += page.results.map(\.title)
    }
    return titles
}

func chatLines(_ chat: Client) async throws -> WebSocketDecodedMessages<String> {
    try await chat.webSocket(Request<Void>(.get, "rooms/lobby/live")).messages(as: String.self)
}

// MARK: Caching and coalescing

func makeCachedMovieClient(environment: ServerEnvironment, apiKey: String) -> Client {
    let cache = ResponseCache(memoryLimit: 10 << 20)
    return Client(backend: .movies, environment: environment) {
        $0.commonParameters.query["api_key"] = apiKey
        $0.decoder.keyDecodingStrategy = .convertFromSnakeCase
        $0.middleware = [CachingMiddleware(cache)]   // after AuthenticationMiddleware, when there is one
    }
}

func popularThreeTimes(_ movies: Client) async throws -> [ResponseSource] {
    let first = try await movies.response(for: MovieAPI.popular(page: 1))
    let second = try await movies.response(for: MovieAPI.popular(page: 1))   // fresh for a minute: not sent
    let checked = try await movies.response(for: MovieAPI.popular(page: 1).request.cachePolicy(.revalidate))
    return [first.source, second.source, checked.source]   // network, cache, revalidated (a 304)
}

// MARK: Testing your app

@Test("popular movies decode, and every request carries the API key")
func popularMoviesDecode() async throws {
    let stub = StubTransport()
    stub.answer(.get("movie/popular"), with: .json(["page": 1, "total_pages": 1, "results": [["id": 550, "title": "Fight Club", "vote_average": 8.4]]]))
    let movies = MovieService(client: makeMovieClient(environment: .production, apiKey: "test-key", transport: stub))

    #expect(try await movies.popular().map(\.title) == ["Fight Club"])
    expectRequest(stub.requests.first, matches: .get("movie/popular").query("page", "1").query("api_key", "test-key"))
}

@Test("a rejected API key reaches the app with the server's message")
func rejectedKey() async throws {
    let stub = StubTransport()
    stub.answer(.any, with: .json(["status_code": 7, "status_message": "Invalid API key"], status: .unauthorized))
    let movies = MovieService(client: makeMovieClient(environment: .production, apiKey: "wrong", transport: stub))

    let error = await #expect(throws: CourierError.self) { try await movies.popular() }
    #expect(error?.kind == .unauthorized)
    #expect(error?.message == "Invalid API key")
}
