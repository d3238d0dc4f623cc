// The DocC catalog's samples, verbatim: `DocCSamplesTests` checks that every Swift block of
// Sources/Courier/Documentation.docc appears here (or in ReadmeTutorial.swift), so each one compiles.
// Laid out as the documentation shows it, comments aligned:
// swift-format-ignore-file
import Courier
import CourierAsyncHTTPClient
import Foundation
import Logging

// MARK: Getting started

struct Friend: Decodable, Sendable {
    let id: Int
    let name: String
}

enum FriendsAPI: Endpoint {
    case list(userID: Int)
    case mutual(userID: Int, otherID: Int)

    var request: Request<[Friend]> {
        switch self {
        case .list(let userID): Request(.get, "friends", query: ["user_id": userID])
        case .mutual(let userID, let otherID): Request(.get, "friends/\(otherID)/mutual", query: ["user_id": userID])
        }
    }
}

func loadFriends(of userID: Int) async throws(CourierError) -> [Friend] {
    let social = Client(baseURL: "https://social.example.com/api/v1") {
        $0.errorFormat = .message   // {"message": "…"}
    }
    return try await social.send(FriendsAPI.list(userID: userID))
}

// MARK: Endpoints and encoding

struct NewPost: Encodable, Sendable {
    let title: String
    let body: String
}

struct PostReceipt: Decodable, Sendable {
    let id: Int
}

enum PostsAPI {
    static func create(_ post: NewPost) -> Request<PostReceipt> {
        Request(.post, "posts", body: .json(post))
    }

    static func search(_ text: String, tags: [String]) -> Request<JSONValue> {
        Request(.get, "posts/search", query: ["q": text, "tags": tags, "filter": ["year": 2026]])
    }

    static func delete(id: Int) -> Request<Void> {
        Request(.delete, "posts/\(id)").header(.idempotencyKey, UUID().uuidString)   // retried safely
    }

    static func uploadAvatar(_ jpeg: Data, userID: Int) -> Request<Void> {
        var form = MultipartFormData()
        form.append("Ada", named: "display_name")
        form.append(jpeg, named: "avatar", filename: "me.jpg", contentType: "image/jpeg")
        return Request(.post, "users/\(userID)/avatar", body: .multipart(form))
    }
}

func inspectSearch(_ client: Client) throws(CourierError) -> String {
    let prepared = try client.prepare(PostsAPI.search("tom & jerry", tags: ["a", "b"]))
    return prepared.request.path ?? ""   // "/api/v1/posts/search?q=tom%20%26%20jerry&tags=a&tags=b&filter%5Byear%5D=2026"
}

func makeFormClient(base: BaseURL) -> Client {
    Client(baseURL: base) {
        $0.queryEncoder = QueryStringEncoder(arrayEncoding: .brackets, boolEncoding: .numeric)   // tags[]=a, true → 1
        $0.commonParameters.headerFields[.acceptLanguage] = "fr"
        $0.commonParameters.bodyFields["app_id"] = "com.example.app"
    }
}

// MARK: Errors

func describe(_ error: CourierError) -> String {
    switch error.kind {
    case .notConnected, .timedOut:
        return "Check your connection and try again."
    case .unauthorized:
        return "Please sign in again."
    case .decodingFailed:
        return "Unexpected data at \(error.codingPath ?? "the top level")."
    default:
        return error.localizedDescription   // the server's own message when it sent one
    }
}

let githubErrors = ErrorBodyFormat.custom { body, response in
    let object = try? JSONDecoder().decode(JSONValue.self, from: body)
    return ServerErrorDetails(message: object?["message"]?.stringValue, code: response.status.code)
}

// MARK: Writing middleware

extension HTTPField.Name {
    static let xRequestID = Self("X-Request-ID")!
}

struct RequestIDMiddleware: Middleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        var request = request
        request.headerFields[.xRequestID] = UUID().uuidString
        return try await next(request, body, context)
    }
}

func makeTracedClient(session: AuthenticationSession, logger: Logger) -> Client {
    Client(baseURL: "https://social.example.com/api/v1") {
        $0.middleware = [
            ReachabilityMiddleware(),                              // offline: fail at once
            AuthenticationMiddleware(session, scheme: .jwt),       // token; one refresh on 401
            RateLimitMiddleware(.perHost(5, per: .seconds(1))),    // excess waits its turn
            RetryMiddleware(.exponential(maxAttempts: 3)),         // idempotent requests only
            RequestIDMiddleware(),                                 // a new ID per attempt
            LoggingMiddleware(logger: logger),                     // one line per attempt
            MetricsMiddleware(),
            TracingMiddleware(),
        ]
    }
}

// MARK: Authentication

extension HTTPField.Name {
    static let apiToken = Self("X-API-Token")!
}

func authenticationSchemes(_ session: AuthenticationSession) -> [AuthenticationMiddleware] {
    [
        AuthenticationMiddleware(session, scheme: .bearer),                 // Authorization: Bearer <token>
        AuthenticationMiddleware(session, scheme: .jwt),                    // Authorization: JWT <token>
        AuthenticationMiddleware(session, scheme: .header(.apiToken)),      // X-API-Token: <token>
        AuthenticationMiddleware(session, scheme: .query("access_token")),  // ?access_token=<token>
    ]
}

struct LoginResponse: Decodable, Sendable {
    let token: String
    let refreshToken: String
}

func signIn(email: String, password: String, auth: Client, session: AuthenticationSession) async throws {
    let login = Request<LoginResponse>(.post, "authenticate", body: .json(["email": email, "password": password]))
        .requiring(!email.isEmpty && !password.isEmpty, "Email and Password Required")
        .withoutAuthentication()
    let response = try await auth.send(login)
    try session.signIn(AuthTokens(accessToken: response.token, refreshToken: response.refreshToken))
}

func watchSession(_ session: AuthenticationSession) async {
    for await event in session.events where event == .expired {
        print("Signed out: show the login screen")
    }
}

// MARK: Transports

func makeClients(base: BaseURL) -> (apple: Client, server: Client) {
    let apple = Client(baseURL: base, transport: .urlSession())          // the default
    let server = Client(baseURL: base, transport: .asyncHTTPClient())    // SwiftNIO; HTTP/2 when offered
    return (apple, server)
}

// MARK: Files, streams and progress

func downloadArchive(_ client: Client, to destination: URL) async throws(CourierError) -> DownloadedFile {
    let archive = Request<Data>(.get, "files/archive.zip").timeout(.seconds(600))   // the whole transfer
    return try await client.download(archive, to: destination) { progress in
        if progress.direction == .download, let fraction = progress.fractionCompleted {
            print("archive: \(Int(fraction * 100))%")
        }
    }
}

func firstBytes(_ client: Client, count: Int) async throws -> [UInt8] {
    let stream = try await client.stream(Request<Data>(.get, "files/1000000"))
    var bytes: [UInt8] = []
    for try await chunk in stream {
        bytes += chunk.prefix(count - bytes.count)
        if bytes.count == count { break }
    }
    return bytes
}

// MARK: Performance design

func makeHotPathClient(base: BaseURL) -> Client {
    // No middleware: no step between the call and its attempt; the body arrives in one piece.
    Client(baseURL: base, transport: .asyncHTTPClient()) {
        $0.timeout = .seconds(5)
    }
}

// MARK: Basic authentication

func makeBasicClient(base: BaseURL) -> Client {
    Client(baseURL: base) {
        $0.middleware = [BasicAuthenticationMiddleware(username: "ada", password: "lovelace")]
    }
}

// MARK: Streams and pages

struct Tick: Decodable, Sendable {
    let price: Double
}

func watchPrices(on client: Client) async throws {
    for try await event in client.events(Request<Tick>(.get, "prices/live")) {
        print(event.id ?? "-", event.type, event.data.price)
    }
}

func watchPricesPatiently(on client: Client) async throws {
    var options = EventStreamOptions()
    options.idleTimeout = .seconds(30)          // the server sends a comment every 15 s
    options.maximumReconnectAttempts = 10
    for try await event in client.events(Request<Tick>(.get, "prices/live"), options: options) {
        print(event.data.price)
    }
}

struct ExportedMovie: Decodable, Sendable {
    let id: Int
    let title: String
}

func importCatalog(from client: Client) async throws -> Int {
    var count = 0
    for try await _ in client.lines(Request<ExportedMovie>(.get, "exports/movies.jsonl")) {
        count += 1
    }
    return count
}

struct RepoPage: Decodable, Sendable {
    let page: Int
    let totalPages: Int
    let repos: [String]
    let nextCursor: String?
}

func allRepos(on client: Client) async throws -> [String] {
    var names: [String] = []
    let first = Request<RepoPage>(.get, "repos", query: ["per_page": 50])
    for try await name in client.items(first, by: .pageNumber(current: \.page, total: \.totalPages), of: \.repos) {
        names.append(name)
    }
    return names
}

func followLinks(on client: Client) async throws {
    for try await page in client.pages(Request<RepoPage>(.get, "repos"), by: .link, maximumPages: 20) {
        print(page.repos)
    }
}

func followCursors(on client: Client) async throws {
    for try await page in client.pages(Request<RepoPage>(.get, "feed"), by: .cursor("after", from: \.nextCursor)) {
        print(page.repos)
    }
}
