// The DocC catalog's samples, verbatim: `DocCSamplesTests` checks that every Swift block of
// Sources/Courier/Documentation.docc appears here (or in ReadmeTutorial.swift), so each one compiles.
// Laid out as the documentation shows it, comments aligned:
// swift-format-ignore-file
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Logging
import Testing

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

func uploadRecording(_ client: Client, video: URL) async throws(CourierError) -> Data {
    var form = MultipartFormData()
    form.append("Holiday, day 3", named: "caption")
    form.appendFile(at: video, named: "video", filename: "day3.mp4", contentType: "video/mp4")
    return try await client.send(Request<Data>(.post, "forms", body: .multipart(form)).priority(.background))
}

func makeScreenClient(base: BaseURL) -> Client {
    Client(baseURL: base) { $0.maximumCallsPerHost = 4 }
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

// MARK: Connections

func makeMutualTLSClient(certificatePEM: String, keyPEM: String) throws -> (Client, HTTPClientTransport) {
    let identity = ClientIdentity.pem(certificateChain: certificatePEM, privateKey: keyPEM)
    let transport = try HTTPClientTransport(trust: ServerTrust(), clientIdentity: identity)
    return (Client(baseURL: "https://bank.example.com/api", transport: transport), transport)
}

func makeKeychainIdentityTransport() throws -> SessionTransport {
    let transport = try SessionTransport(clientIdentity: .keychain(label: "Example Client"), proxy: nil)
    return transport
}

func makeStrictClient(transport: HTTPClientTransport) -> Client {
    Client(baseURL: "https://api.example.com/v1", transport: transport) {
        $0.hostsRequiringPins = ["api.example.com"]
    }
}

func makeProxiedClient(proxyPassword: String) throws -> (Client, HTTPClientTransport) {
    let proxy = Proxy.http(host: "proxy.corp.example", port: 3128, credentials: ProxyCredentials(username: "ada", password: proxyPassword))
        .bypassing(["localhost", ".internal.example"])
    let transport = try HTTPClientTransport(trust: ServerTrust(), proxy: proxy)
    return (Client(baseURL: "https://api.example.com/v1", transport: transport), transport)
}

// MARK: Large transfers

func downloadEpisode(_ client: Client, to destination: URL) async throws(CourierError) -> DownloadedFile {
    // Call it again after a failure: it resumes where the saved bytes end.
    try await client.resumableDownload(Request<Data>(.get, "files/episode-12.mp4"), to: destination)
}

func savedFraction(of destination: URL) -> Double? {
    guard let record = DownloadRecord.existing(for: destination), let total = record.totalBytes, total > 0 else { return nil }
    return Double(record.bytesWritten) / Double(total)
}

func giveUp(on destination: URL) {
    DownloadRecord.discard(for: destination)
}

func downloadSigned(_ client: Client, fileID: String, to destination: URL, freshLink: @escaping @Sendable () async -> String?) async throws(CourierError) -> DownloadedFile {
    try await client.resumableDownload(Request<Data>(.get, "downloads/\(fileID)"), to: destination, renewingRequest: { _ in
        guard let signature = await freshLink() else { return nil }
        return Request<Data>(.get, "downloads/\(fileID)", query: ["signature": signature])
    })
}

func downloadShowingSpeed(_ client: Client, to destination: URL) async throws -> DownloadedFile {
    let updates = TransferProgressUpdates()
    let label = Task {
        for await update in updates {
            let percent = Int((update.fractionCompleted ?? 0) * 100)
            print("\(percent)% at \(Int(update.bytesPerSecond ?? 0) / 1024) KiB/s")
        }
    }
    let file = try await updates.reporting { progress in
        try await client.resumableDownload(Request<Data>(.get, "files/episode-12.mp4"), to: destination, progress: progress)
    }
    await label.value
    return file
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

// MARK: Caching and coalescing

func makeCachedClient(session: AuthenticationSession, caches: URL) throws -> Client {
    let folder = caches.appendingPathComponent("movies-api")   // a folder of its own
    let cache = try ResponseCache(directory: folder, diskLimit: 50 << 20, memoryLimit: 4 << 20)
    return Client(baseURL: "https://api.example.com/3") {
        $0.middleware = [AuthenticationMiddleware(session), CachingMiddleware(cache)]
    }
}

func showPopular(with client: Client) async throws {
    let page = try await client.response(for: Request<JSONValue>(.get, "movie/popular"))
    print(page.source)   // network the first time, then cache while fresh
}

enum MoviesAPI {
    static func popular(page: Int) -> Request<JSONValue> {
        Request(.get, "movie/popular", query: ["page": page])
    }
}

func refresh(with client: Client) async throws -> JSONValue {
    try await client.send(MoviesAPI.popular(page: 1).cachePolicy(.revalidate))
}

func showOffline(with client: Client) async -> JSONValue? {
    do {
        return try await client.send(MoviesAPI.popular(page: 1).cachePolicy(.onlyIfCached))
    } catch where error.kind == .notCached {
        return nil   // nothing stored yet; nothing was sent
    } catch {
        return nil
    }
}

func loadTwice(with client: Client) async throws {
    async let first = client.send(MoviesAPI.popular(page: 1))
    async let second = client.send(MoviesAPI.popular(page: 1))
    _ = try await (first, second)   // one request on the wire
}

// MARK: Testing your app

func makeSocialClient(transport: any Transport = .urlSession()) -> Client {
    Client(baseURL: "https://social.example.com/api/v1", transport: transport) {
        $0.errorFormat = .message
    }
}

@Test("the friends of a user decode")
func friendsDecode() async throws {
    let stub = StubTransport()
    stub.answer(.get("friends").query("user_id", "1"), with: .json([["id": 2, "name": "Grace"]]))
    let social = makeSocialClient(transport: stub)

    let friends = try await social.send(FriendsAPI.list(userID: 1))

    #expect(friends.map(\.name) == ["Grace"])
}

func registerAnswers(on stub: StubTransport, fixtures: URL, avatar: Data) {
    stub.answer(.get("friends/{id}/mutual"), with: .fixture(fixtures.appending(path: "mutual.json")))
    stub.answer(.get("friends"), with: .status(.serviceUnavailable), .json([["id": 2, "name": "Grace"]]))   // 503, then 200
    stub.answer(.post("friends").jsonBody(["user_id": 1, "friend_id": 2]), with: .json(["message": "Already friends"], status: .conflict))
    stub.answer(.get("avatars/{id}"), with: .data(avatar, contentType: "image/png").throttled(bytesPerSecond: 50_000))
    stub.answer(.delete("friends/{id}"), with: .failure(.offline))
    stub.answer(.get("search")) { request in
        .json(["query": .string(request.queryValue("q") ?? "")])
    }
}

@Test("a request nothing answers fails with what was registered")
func unmatchedRequest() async throws {
    let stub = StubTransport()
    stub.answer(.get("friends"), with: .json([]))
    let social = makeSocialClient(transport: stub)

    let error = await #expect(throws: CourierError.self) { try await social.send(FriendsAPI.mutual(userID: 1, otherID: 2)) }
    #expect(error?.description.contains("1. GET friends") == true)
}

extension FriendsAPI: SampleResponding {
    var sampleResponse: StubResponse {
        switch self {
        case .list: .json([["id": 2, "name": "Grace"]])
        case .mutual: .json([["id": 3, "name": "Linus"]])
        }
    }
}

@Test("every endpoint answers from its sample")
func answersFromSamples() async throws {
    let stub = StubTransport(samples: [FriendsAPI.list(userID: 0), FriendsAPI.mutual(userID: 0, otherID: 0)])
    let social = makeSocialClient(transport: stub)

    #expect(try await social.send(FriendsAPI.mutual(userID: 1, otherID: 9)).map(\.name) == ["Linus"])
}

@Test("the request carries the user and the token")
func requestCarriesToken() async throws {
    let stub = StubTransport()
    stub.answer(.get("friends"), with: .json([]))
    let session = AuthenticationSession { _ in AuthTokens(accessToken: "renewed") }
    try session.signIn(AuthTokens(accessToken: "secret-token"))
    let social = makeSocialClient(transport: stub)
    social.configuration.middleware = [AuthenticationMiddleware(session, scheme: .jwt)]

    _ = try await social.send(FriendsAPI.list(userID: 1))

    let request = try #require(stub.requests.first)
    #expect(request.queryValue("user_id") == "1")
    expectRequest(request, matches: .get("friends").header(.authorization, "JWT secret-token"))
    print(request)   // GET https://social.example.com/api/v1/friends?user_id=1, Authorization: <redacted>
}

@Test("a silent server times out after 30 seconds of the test's clock")
func silentServerTimesOut() async throws {
    let clock = ManualClock()
    let stub = StubTransport(clock: clock)
    stub.answer(.any, with: .json([]).delayed(by: .seconds(60)))
    let social = makeSocialClient(transport: stub)
    social.configuration.clock = clock
    social.configuration.timeout = .seconds(30)

    let call = Task { try await social.send(FriendsAPI.list(userID: 1)) }
    let error = await #expect(throws: CourierError.self) { try await clock.run(call) }   // moves the clock until the call ends

    #expect(error?.kind == .timedOut)
    #expect(clock.now.offset >= .seconds(30))
}

@Test("a 503 is retried after its back-off")
func retriesAfter503() async throws {
    let clock = ManualClock()
    let stub = StubTransport(clock: clock)
    stub.answer(.get("friends"), with: .status(.serviceUnavailable), .json([["id": 2, "name": "Grace"]]))
    let social = makeSocialClient(transport: stub)
    social.configuration.clock = clock
    social.configuration.middleware = [RetryMiddleware(.exponential(maxAttempts: 3))]

    let call = Task { try await social.send(FriendsAPI.list(userID: 1)) }
    #expect(await clock.run(until: { stub.requests.count == 2 }))   // moves through the back-off at once

    #expect(try await call.value.count == 1)
}

func recordFriends(to file: URL) async throws {
    let recorder = HARRecorder(.urlSession())
    let social = makeSocialClient(transport: recorder)
    _ = try await social.send(FriendsAPI.list(userID: 1))
    try recorder.archive.write(to: file)   // no credentials: header fields, query parameters and cookies redacted
}

func replayFriends(from file: URL) async throws -> [Friend] {
    let stub = StubTransport(replaying: try HARArchive(contentsOf: file))
    return try await makeSocialClient(transport: stub).send(FriendsAPI.list(userID: 1))
}

// MARK: WebSockets

struct ChatLine: Codable, Sendable {
    let author: String
    let text: String
}

func joinLobby(on chat: Client) async throws {
    let socket = try await chat.webSocket(Request<Void>(.get, "rooms/lobby/live"))
    try await socket.send(encoding: ChatLine(author: "ada", text: "hello"))
    for try await line in socket.messages(as: ChatLine.self) {
        print(line.author, line.text)
    }
}

func follow(_ socket: WebSocket) async {
    do {
        for try await message in socket.messages {
            print(message)
        }
        // The app closed the socket, or the reading task was cancelled.
    } catch {
        switch error.webSocket?.reason {   // error is a CourierError
        case .closedByServer: print("closed:", error.webSocket?.closeCode ?? .abnormalClosure)
        case .pingTimeout: print("the server went silent")
        case .messageTooLarge, .readerTooSlow: print("too much at once")
        default: print(error.localizedDescription)
        }
    }
}

func openTicker(on client: Client) async throws -> WebSocket {
    try await client.webSocket(Request<Void>(.get, "prices/live")) { socket in
        socket.maximumMessageSize = 256 * 1024
        socket.incomingBufferLimit = 1 << 20
        socket.outgoingBufferLimit = 64 * 1024
        socket.pingPolicy = .every(.seconds(15), timeout: .seconds(5), missedPongs: 2)
    }
}

struct Subscribe: Encodable, Sendable {
    let room: String
}

func stayInLobby(on chat: Client) async throws {
    let live = chat.liveWebSocket(Request<Void>(.get, "rooms/lobby/live")) { socket in
        try await socket.send(encoding: Subscribe(room: "lobby"))
    }
    Task {
        for await event in live.events { print(event) }
    }
    for try await message in live.messages {
        print(message)
    }
}

func stayInLobby(on chat: Client, network: any ConnectivityMonitor) -> LiveWebSocket {
    chat.liveWebSocket(Request<Void>(.get, "rooms/lobby/live"), connectivity: network) { socket in
        try await socket.send(encoding: Subscribe(room: "lobby"))
    }
}

// MARK: Testing WebSockets

@Test("joining the lobby sends a hello and shows the welcome")
func lobbyWelcome() async throws {
    let stub = StubTransport()
    let lobby = StubWebSocket()
    stub.answerWebSocket(.get("rooms/lobby/live"), with: lobby)
    try lobby.receive(encoding: ChatLine(author: "ada", text: "welcome"))

    let socket = try await makeSocialClient(transport: stub).webSocket(Request<Void>(.get, "rooms/lobby/live"))
    try await socket.send(encoding: ChatLine(author: "eve", text: "hello"))
    var lines = socket.messages(as: ChatLine.self).makeAsyncIterator()

    #expect(try await lines.next()?.text == "welcome")
    #expect(try lobby.sent(as: ChatLine.self).map(\.text) == ["hello"])
}

// MARK: Versions and timings (the doc comments of HTTPProtocolVersion and ExchangeTimings)

func reportVersionAndTimings(movies: Client) async throws {
    let response = try await movies.response(for: MovieAPI.popular(page: 1))
    if response.httpVersion == .http2 { print("multiplexed") }
    if let timings = response.timings, let firstByte = timings.responseStarted {
        print("first byte after \(firstByte), reused: \(timings.reusedConnection.map(String.init) ?? "?")")
    }
}
