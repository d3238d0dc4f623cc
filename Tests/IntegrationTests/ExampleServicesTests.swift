import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("Example services end to end against the reference server", .timingSensitive)
struct ExampleServicesTests {
    let demo = ReferenceServer.demoCredentials

    @Test("login with an empty field is refused locally and sends nothing", arguments: TransportKind.allCases)
    func loginValidation(transport: TransportKind) async throws {
        // Pointed at a closed port: any traffic would fail as notConnected instead.
        let closed = try await ReferenceServer.unusedPort()
        let auth = AuthService(client: .auth(environment: .custom("http://127.0.0.1:\(closed)"), transport: transport.make()))
        for (email, password) in [("", "x"), ("a@b.c", ""), ("", "")] {
            let error = await #expect(throws: CourierError.self) { try await auth.authenticate(email: email, password: password) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.localizedDescription == "Email and Password Required")
        }
    }

    @Test("a wrong password is unauthorized with the server's message", arguments: TransportKind.allCases)
    func wrongPassword(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let auth = AuthService(client: backends.auth())
            let error = await #expect(throws: CourierError.self) { try await auth.authenticate(email: demo.email, password: "nope") }
            #expect(error?.kind == .unauthorized)
            #expect(error?.localizedDescription == "Invalid email or password")
        }
    }

    @Test("login, token check with common parameters, logout", arguments: TransportKind.allCases)
    func sessionLifecycle(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let auth = AuthService(client: backends.auth())
            let session = try await auth.authenticate(email: demo.email, password: demo.password)
            #expect(session.userId == 1)
            #expect(session.expiresIn > 3000)
            let status = try await auth.checkToken()
            #expect(status.valid && status.userId == 1)
            #expect(status.apiVersion == "7")
            #expect(status.deviceType == "tests")
            #expect(status.expiresAt > Date())
            try await auth.logout()
            let error = await #expect(throws: CourierError.self) { try await auth.checkToken() }
            #expect(error?.kind == .unauthorized)
        }
    }

    @Test("an expired token is renewed through the refresh endpoint without the caller noticing", arguments: TransportKind.allCases)
    func expiredToken(transport: TransportKind) async throws {
        var options = ReferenceServer.Options()
        options.tokenLifetime = .milliseconds(1500)
        options.refreshedTokenLifetime = .seconds(120)
        try await withBackends(transport, options: options) { backends in
            let auth = AuthService(client: backends.auth())
            try await auth.authenticate(email: demo.email, password: demo.password)
            try await Task.sleep(for: .milliseconds(1700))
            let status = try await auth.checkToken()
            #expect(status.valid)
            let refreshes = await backends.server.refreshCount
            #expect(refreshes == 1)
        }
    }

    @Test("a session the server no longer knows is unauthorized with the server's message", arguments: TransportKind.allCases)
    func revokedSession(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let auth = AuthService(client: backends.auth())
            try auth.session.signIn(AuthTokens(accessToken: "revoked", refreshToken: "revoked-too"))
            let error = await #expect(throws: CourierError.self) { try await auth.checkToken() }
            #expect(error?.kind == .unauthorized)
            #expect(error?.message == "Invalid token")
            #expect(auth.session.refreshCount == 1)
        }
    }

    @Test("friends: load, add, remove, and the errors of each", arguments: TransportKind.allCases)
    func friends(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let friends = FriendsService(client: try await backends.loggedInSocial())
            let me = User(id: 1)
            let before = try await friends.load(for: me)
            #expect(before.count == 8)
            #expect(before.contains { $0.email == nil })
            let stranger = User(id: 59)
            #expect(!before.contains(stranger))
            let added = try await friends.add(stranger, to: me)
            #expect(added.id == 59)
            let value4 = try await friends.load(for: me).count
            #expect(value4 == 9)

            let duplicate = await #expect(throws: CourierError.self) { try await friends.add(stranger, to: me) }
            #expect(duplicate?.kind == .clientError)
            #expect(duplicate?.status == .conflict)
            #expect(duplicate?.localizedDescription == "User 59 is already a friend")

            try await friends.remove(stranger, from: me)
            let value5 = try await friends.load(for: me).map(\.id)
            #expect(value5 == before.map(\.id))
            let notFriends = await #expect(throws: CourierError.self) { try await friends.remove(stranger, from: me) }
            #expect(notFriends?.kind == .notFound)

            let unknown = await #expect(throws: CourierError.self) { try await friends.load(for: User(id: 999)) }
            #expect(unknown?.kind == .notFound)
            #expect(unknown?.localizedDescription == "User 999 not found")
        }
    }

    @Test("friends without a token are unauthorized", arguments: TransportKind.allCases)
    func friendsWithoutToken(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let error = await #expect(throws: CourierError.self) { try await FriendsService(client: backends.social()).load(for: User(id: 1)) }
            #expect(error?.kind == .unauthorized)
            #expect(error?.localizedDescription == "Authentication required")
        }
    }

    @Test("friends through the completion handler", arguments: TransportKind.allCases)
    func friendsCompletion(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let friends = FriendsService(client: try await backends.loggedInSocial())
            let result = await withCheckedContinuation { continuation in
                friends.load(for: User(id: 2)) { continuation.resume(returning: $0) }
            }
            #expect(try result.get().count == 8)
        }
    }

    @Test("an avatar uploads as multipart and the server reads every part", arguments: TransportKind.allCases)
    func avatarUpload(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let social = try await backends.loggedInSocial()
            let image = Data((0..<5000).map { UInt8($0 % 251) })
            let receipt = try await social.send(
                SocialAPI.uploadAvatar(for: 1, image: image, filename: "me.png", contentType: "image/png", caption: "Hi ✨")
            )
            #expect(receipt.userId == 1)
            #expect(receipt.filename == "me.png")
            #expect(receipt.contentType == "image/png")
            #expect(receipt.size == 5000)
            #expect(receipt.caption == "Hi ✨")
        }
    }

    @Test("three pages of popular movies, with snake_case keys decoded", arguments: TransportKind.allCases)
    func popularPages(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let movies = MovieService(client: backends.movies())
            let pages = try await movies.pages(of: .popular(page: 1), count: 3)
            #expect(pages.map(\.page) == [1, 2, 3])
            #expect(pages.allSatisfy { $0.results.count == 20 && $0.totalPages == 10 && $0.totalResults == 200 })
            #expect(Set(pages.flatMap(\.results).map(\.id)).count == 60)
            let first = try #require(pages.first?.results.first)
            #expect(first.posterPath == "/posters/\(first.id).jpg")
            #expect(first.voteAverage > 0)
            #expect(pages.flatMap(\.results).contains { $0.backdropPath == nil })
            let last = try await movies.popular(page: 10)
            #expect(last.nextPage == nil)
        }
    }

    @Test("now playing, recommendations and videos", arguments: TransportKind.allCases)
    func movieLists(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let movies = MovieService(client: backends.movies())
            let nowPlaying = try await movies.nowPlaying()
            #expect(nowPlaying.totalResults > 0)
            let movie = try #require(nowPlaying.results.first)
            let recommended = try await movies.recommended(for: movie)
            #expect(!recommended.results.isEmpty)
            #expect(!recommended.results.contains { $0.id == movie.id })
            let videos = try await movies.videos(for: movie)
            #expect(!videos.isEmpty)
            #expect(videos.first?.type == "Trailer")
            #expect(videos.first.map { Calendar(identifier: .gregorian).component(.year, from: $0.publishedAt) } == 2026)
        }
    }

    @Test("movie errors keep TMDB's message and code", arguments: TransportKind.allCases)
    func movieErrors(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let badKey = MovieService(client: backends.movies(apiKey: "wrong"))
            let unauthorized = await #expect(throws: CourierError.self) { try await badKey.nowPlaying() }
            #expect(unauthorized?.kind == .unauthorized)
            #expect(unauthorized?.serverCode == 7)
            #expect(unauthorized?.localizedDescription == "Invalid API key: You must be granted a valid key.")

            let movies = backends.movies()
            let badPage = await #expect(throws: CourierError.self) { try await movies.send(MovieAPI.popular(page: 0)) }
            #expect(badPage?.kind == .clientError)
            #expect(badPage?.serverCode == 22)

            let missing = await #expect(throws: CourierError.self) { try await movies.send(MovieAPI.details(movieID: 5)) }
            #expect(missing?.kind == .notFound)
            #expect(missing?.localizedDescription == "The resource you requested could not be found.")
        }
    }

    @Test("a model that does not match the payload names the field path", arguments: TransportKind.allCases)
    func decodingPath(transport: TransportKind) async throws {
        struct WrongMovie: Decodable, Sendable { var title: Int }
        struct WrongPage: Decodable, Sendable { var results: [WrongMovie] }
        try await withBackends(transport) { backends in
            let error = await #expect(throws: CourierError.self) {
                try await backends.movies().send(Request<WrongPage>(.get, "movie/popular"))
            }
            #expect(error?.kind == .decodingFailed)
            #expect(error?.codingPath == "results[0].title")
        }
    }

    @Test("analytics batches go to a second backend while other clients work", arguments: TransportKind.allCases)
    func analyticsSideBySide(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let analytics = AnalyticsService(client: backends.analytics())
            let movies = MovieService(client: backends.movies())
            let events = (1...5).map { AnalyticsEvent(name: "e\($0)", properties: ["n": .int($0), "tags": ["a", "b"]]) }
            async let receipt = analytics.send(events)
            async let page = movies.popular()
            let value6 = try await receipt.accepted
            #expect(value6 == 5)
            let value7 = try await page.page
            #expect(value7 == 1)
            #expect(await backends.server.analyticsEventCount == 5)

            let empty = await #expect(throws: CourierError.self) { try await analytics.send([]) }
            #expect(empty?.kind == .invalidRequest)

            let noAppID = Client(baseURL: BaseURL(backends.server.analyticsBaseURL), transport: backends.transport)
            let missing = await #expect(throws: CourierError.self) { try await AnalyticsService(client: noAppID).send(events) }
            #expect(missing?.kind == .clientError)
            #expect(missing?.localizedDescription == "X-App-ID header is required")
        }
    }
}
