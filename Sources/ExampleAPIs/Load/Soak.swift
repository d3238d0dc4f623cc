import Courier
import Foundation

/// The example app's traffic at volume: popular and now-playing movie pages, a logged-in user's
/// friends, user profiles and analytics events, round-robin, with a fixed number in flight.
/// Shared by the soak test (2,000 requests) and `courier-bench --soak` (20,000).
package struct Soak: Sendable {
    /// What a run did.
    package struct Report: Sendable, CustomStringConvertible {
        /// Requests sent.
        package var requests = 0
        /// Failed requests by error kind; empty when every request succeeded.
        package var failures: [String: Int] = [:]
        /// Wall time of the whole run.
        package var elapsed: Duration = .zero
        /// Resident memory after the warm-up requests, MiB.
        package var residentAfterWarmup = 0.0
        /// Resident memory after the last request, MiB.
        package var residentAfterRun = 0.0
        /// Requests the clients still count in flight after the run (0 unless something leaked).
        package var inFlightAfter = 0

        /// Growth of resident memory from after the warm-up to the end, as a fraction.
        package var residentGrowth: Double {
            residentAfterWarmup > 0 ? residentAfterRun / residentAfterWarmup - 1 : 0
        }

        package var description: String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = seconds > 0 ? Double(requests) / seconds : 0
            return String(
                format: "%d requests in %.1f s (%.0f req/s), failures %@, RSS after warm-up %.1f MiB, after run %.1f MiB (%+.1f%%), in flight after %d",
                requests, seconds, rate, failures.isEmpty ? "none" : failures.description,
                residentAfterWarmup, residentAfterRun, residentGrowth * 100, inFlightAfter
            )
        }
    }

    let movies: MovieService
    let friends: FriendsService
    let analytics: AnalyticsService
    let social: Client
    let clients: [Client]

    /// Logs in the demo user and prepares the services.
    /// - Parameters:
    ///   - environment: The main backend (social, movies, auth).
    ///   - analyticsEnvironment: The analytics backend.
    ///   - apiKey: The movie backend's key.
    ///   - credentials: The demo account.
    ///   - transport: The transport every client uses.
    package init(
        environment: ServerEnvironment,
        analyticsEnvironment: ServerEnvironment,
        apiKey: String,
        credentials: (email: String, password: String),
        transport: any Transport
    ) async throws {
        let authClient = Client.auth(environment: environment, apiVersion: "7", deviceType: "soak", transport: transport)
        let auth = AuthService(client: authClient)
        try await auth.authenticate(email: credentials.email, password: credentials.password)
        social = .social(environment: environment, session: auth.session, transport: transport)
        let moviesClient = Client.movies(environment: environment, apiKey: apiKey, transport: transport)
        let analyticsClient = Client.analytics(environment: analyticsEnvironment, appID: "soak", transport: transport)
        movies = MovieService(client: moviesClient)
        friends = FriendsService(client: social)
        analytics = AnalyticsService(client: analyticsClient)
        clients = [authClient, social, moviesClient, analyticsClient]
    }

    /// Sends `total` requests, `concurrency` at a time.
    /// - Parameters:
    ///   - total: How many requests.
    ///   - concurrency: How many in flight at once.
    ///   - warmup: After how many completed requests the baseline memory is taken.
    /// - Returns: The report.
    package func run(total: Int, concurrency: Int, warmup: Int = 1_000) async -> Report {
        var report = Report()
        let start = ContinuousClock.now
        await withTaskGroup(of: String?.self) { group in
            var next = 0
            func addNext() {
                let index = next
                next += 1
                group.addTask { await self.request(index) }
            }
            while next < min(concurrency, total) { addNext() }
            for await failure in group {
                report.requests += 1
                if let failure { report.failures[failure, default: 0] += 1 }
                if report.requests == min(warmup, total) { report.residentAfterWarmup = ResidentMemory.currentMebibytes() }
                if next < total { addNext() }
            }
        }
        report.elapsed = ContinuousClock.now - start
        report.residentAfterRun = ResidentMemory.currentMebibytes()
        report.inFlightAfter = clients.reduce(0) { $0 + $1.inFlightCount }
        return report
    }

    /// Request number `index` of the mix; the error kind when it failed.
    func request(_ index: Int) async -> String? {
        do {
            switch index % 5 {
            case 0: _ = try await movies.popular(page: index % 10 + 1)
            case 1: _ = try await friends.load(for: User(id: 1))
            case 2: _ = try await analytics.send([AnalyticsEvent(name: "soak", properties: ["index": .int(index)])])
            case 3: _ = try await social.send(SocialAPI.user(id: index % 40 + 1))
            default: _ = try await movies.nowPlaying(page: index % 10 + 1)
            }
            return nil
        } catch {
            return error.kind.description
        }
    }
}
