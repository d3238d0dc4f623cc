import Courier
import ExampleAPIs
import Foundation

/// The example app's flow, as a screen-by-screen transcript: what a user of the social, movie,
/// auth and analytics backends would see.
struct AppFlow {
    var environment: ServerEnvironment
    /// The server's root, for the reliability routes (`/flaky`, `/limited`).
    var rootURL: BaseURL
    var analyticsEnvironment: ServerEnvironment
    var movieAPIKey: String
    var credentials: (email: String, password: String)
    var offlinePort: Int
    var transport: any Transport
    /// The server's WebSocket listener, when there is one to show.
    var webSocketURL: BaseURL?
    let transcript = Transcript()

    /// Runs every step; returns the steps that did not behave as expected.
    func run() async -> [String] {
        let authClient = Client.auth(environment: environment, apiVersion: "1", deviceType: "linux", transport: transport)
        authClient.configuration.middleware.append(LoggingMiddleware(logger: transcript.logger))
        let auth = AuthService(client: authClient)
        let social = Client.social(environment: environment, session: auth.session, transport: transport)
        let movies = Client.movies(environment: environment, apiKey: movieAPIKey, transport: transport)
        let analytics = AnalyticsService(
            client: .analytics(environment: analyticsEnvironment, appID: "com.example.courier-demo", transport: transport)
        )
        let friends = FriendsService(client: social)
        let movieService = MovieService(client: movies)

        await logIn(auth)
        transcript.logLines = []
        guard let me = await checkToken(auth) else { return transcript.failures }
        await refreshOnce(auth, me: me)
        await throttledBurst()
        await retriedRoute()
        await transferLargeFile()
        await resumeCutDownload()
        await showFriends(friends, of: me)
        await showMovies(movieService)
        await showStreamsAndPages(movieService)
        await showWebSockets()
        await showCaching()
        await showStandards(movies: movies)
        await cancelSlowRequest(social, me: me)
        await showServerErrors(social, movies: movies, me: me)
        await showOffline()
        #if OfflineQueue
        await showOfflineQueue()
        #endif
        await sendAnalytics(analytics)
        await logOut(auth)
        return transcript.failures
    }

    private func logIn(_ auth: AuthService) async {
        transcript.heading("Log in")
        do {
            try await auth.authenticate(email: credentials.email, password: "")
            transcript.check(false, "an empty password was accepted")
        } catch {
            transcript.check(
                error.kind == .invalidRequest,
                "empty password refused before any traffic: \"\(error.localizedDescription)\" (\(error.kind))"
            )
        }
        do {
            try await auth.authenticate(email: credentials.email, password: "wrong password")
            transcript.check(false, "a wrong password was accepted")
        } catch {
            transcript.check(
                error.kind == .unauthorized,
                "wrong password rejected by the server: \"\(error.localizedDescription)\" (\(error.kind))"
            )
        }
        do {
            let session = try await auth.authenticate(email: credentials.email, password: credentials.password)
            transcript.check(true, "logged in as \(credentials.email): user \(session.userId), token expires in \(session.expiresIn) s")
        } catch {
            transcript.check(false, "login failed: \(error.localizedDescription) — \(error)")
        }
    }

    private func checkToken(_ auth: AuthService) async -> User? {
        transcript.heading("Token check")
        do {
            let status = try await auth.checkToken()
            transcript.check(
                status.valid && status.apiVersion == "1" && status.deviceType == "linux",
                "token valid for user \(status.userId) until \(status.expiresAt.formatted(.iso8601)); server saw API version \(status.apiVersion ?? "-") and device \(status.deviceType ?? "-")"
            )
            return User(id: status.userId)
        } catch {
            transcript.check(false, "token check failed: \(error.localizedDescription) — \(error)")
            return nil
        }
    }

    private func showFriends(_ friends: FriendsService, of me: User) async {
        transcript.heading("Friends")
        do {
            let list = try await friends.load(for: me)
            transcript.check(!list.isEmpty, "user \(me.id) has \(list.count) friends: \(list.prefix(4).map(\.displayName).joined(separator: ", "))…")
            let newFriend = User(id: 42)
            let added = try await friends.add(newFriend, to: me)
            let afterAdd = try await friends.load(for: me)
            transcript.check(afterAdd.count == list.count + 1, "added \(added.displayName): now \(afterAdd.count) friends")
            try await friends.remove(newFriend, from: me)
            let afterRemove = try await friends.load(for: me)
            transcript.check(afterRemove.count == list.count, "removed \(added.displayName): back to \(afterRemove.count) friends")
        } catch {
            transcript.check(false, "friends failed: \(error.localizedDescription) — \(error)")
        }
    }

    private func showMovies(_ movies: MovieService) async {
        transcript.heading("Popular movies")
        do {
            let pages = try await movies.pages(of: .popular(page: 1), count: 3)
            for page in pages {
                let titles = page.results.prefix(3).map { "\($0.title) (\(String(format: "%.1f", $0.voteAverage)))" }
                transcript.line("page \(page.page)/\(page.totalPages): \(titles.joined(separator: ", ")), …")
            }
            transcript.check(pages.map(\.page) == [1, 2, 3], "three pages of \(pages.first?.totalResults ?? 0) popular movies")
            if let first = pages.first?.results.first {
                let videos = try await movies.videos(for: first)
                let names = videos.map { "\($0.name) [\($0.type), \($0.site)]" }
                transcript.check(!videos.isEmpty, "videos of \"\(first.title)\": \(names.joined(separator: "; "))")
            }
            let nowPlaying = try await movies.nowPlaying()
            transcript.check(nowPlaying.totalResults > 0, "now playing: \(nowPlaying.totalResults) movies (sent with api_key as a common parameter)")
        } catch {
            transcript.check(false, "movies failed: \(error.localizedDescription) — \(error)")
        }
    }

    private func cancelSlowRequest(_ social: Client, me: User) async {
        transcript.heading("Cancellation")
        let started = ContinuousClock.now
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[User], CourierError>, Never>) in
            let handle = social.send(SocialAPI.friends(of: me.id).header(.fault, "delay=5000")) { result in
                continuation.resume(returning: result)
            }
            Task {
                try? await Task.sleep(for: .milliseconds(200))
                handle.cancel()
            }
        }
        let elapsed = ContinuousClock.now - started
        switch result {
        case .success:
            transcript.check(false, "a cancelled request delivered a success")
        case .failure(let error):
            transcript.check(
                error.kind == .cancelled && elapsed < .seconds(2),
                "a 5-second request cancelled after 200 ms ended in \(elapsed.formatted(.units(allowed: [.milliseconds]))): \(error.localizedDescription)"
            )
        }
    }

    private func showServerErrors(_ social: Client, movies: Client, me: User) async {
        transcript.heading("Server errors")
        do {
            _ = try await social.send(SocialAPI.friends(of: me.id).header(.fault, "status=500,message=The friends database is unavailable"))
            transcript.check(false, "an injected 500 succeeded")
        } catch {
            transcript.check(
                error.kind == .serverError && error.message == "The friends database is unavailable",
                "social backend 500: \"\(error.localizedDescription)\" (\(error.kind))"
            )
        }
        do {
            _ = try await movies.send(MovieAPI.details(movieID: 1))
            transcript.check(false, "an unknown movie was found")
        } catch {
            transcript.check(
                error.kind == .notFound && error.serverCode == 34,
                "movie backend 404: \"\(error.localizedDescription)\" (TMDB status_code \(error.serverCode ?? 0))"
            )
        }
    }

    private func showOffline() async {
        transcript.heading("Offline")
        let offline = Client(baseURL: "http://127.0.0.1:\(offlinePort)", transport: transport)
        let started = ContinuousClock.now
        do {
            _ = try await FriendsService(client: offline).load(for: User(id: 1))
            transcript.check(false, "a closed port answered")
        } catch {
            let elapsed = ContinuousClock.now - started
            transcript.check(
                error.kind == .notConnected && elapsed < .seconds(2),
                "closed port \(offlinePort): \"\(error.localizedDescription)\" in \(elapsed.formatted(.units(allowed: [.milliseconds])))"
            )
        }
    }

    private func sendAnalytics(_ analytics: AnalyticsService) async {
        transcript.heading("Analytics (a second backend, its own client)")
        let events = [
            AnalyticsEvent(name: "screen_view", properties: ["screen": "friends", "count": 8]),
            AnalyticsEvent(name: "movie_opened", properties: ["movie_id": 1000, "source": "popular", "autoplay": false]),
            AnalyticsEvent(name: "logout", properties: [:]),
        ]
        do {
            let receipt = try await analytics.send(events)
            transcript.check(receipt.accepted == 3, "sent \(events.count) events: accepted \(receipt.accepted), \(receipt.total) in total, app id \(receipt.appId)")
        } catch {
            transcript.check(false, "analytics failed: \(error.localizedDescription) — \(error)")
        }
    }

    private func logOut(_ auth: AuthService) async {
        transcript.heading("Log out")
        do {
            try await auth.logout()
            _ = try await auth.checkToken()
            transcript.check(false, "the token still worked after logout")
        } catch {
            transcript.check(error.kind == .unauthorized, "logged out; the token check now says: \"\(error.localizedDescription)\"")
        }
    }
}
