import Courier
import ExampleAPIs
import Foundation
import HTTPTypes

extension AppFlow {
    /// The HTTP cache and coalescing: a second load from the cache, a revalidation answered 304,
    /// 100 identical requests sent once, and two users' identical requests each sent.
    func showCaching() async {
        transcript.heading("Caching and coalescing")
        struct Resource: Decodable, Sendable {
            var hit: Int
            var user: String
        }
        let movies = Client.movies(environment: environment, apiKey: movieAPIKey, transport: transport)
        movies.configuration.middleware.append(CachingMiddleware(ResponseCache()))
        let root = Client(baseURL: rootURL, transport: transport)
        do {
            let first = try await movies.response(for: MovieAPI.popular(page: 1))
            let second = try await movies.response(for: MovieAPI.popular(page: 1))
            transcript.check(
                first.source == .network && second.source == .cache,
                "popular movies loaded twice: first from the \(first.source), then from the \(second.source)"
            )
            let checked = try await movies.response(for: MovieAPI.popular(page: 1).request.cachePolicy(.revalidate))
            transcript.check(
                checked.source == .revalidated && checked.value.results.count == first.value.results.count,
                "pull to refresh: the server answered 304, the stored page was \(checked.source)"
            )

            let burst = Request<Resource>(.get, "cache/demo-burst", query: ["delay_ms": 500])
            let hits = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 { group.addTask { try await root.send(burst).hit } }
                return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            let afterBurst = try await root.send(Request<Resource>(.get, "cache/demo-burst")).hit
            transcript.check(
                hits == [1] && afterBurst == 2,
                "100 identical requests at once: the server counted \(afterBurst - 1), each caller got its own copy"
            )

            let users = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<20 {
                    let user = index.isMultiple(of: 2) ? "ada" : "grace"
                    let request = Request<Resource>(.get, "cache/demo-users", query: ["delay_ms": 500]).header(.authorization, "Bearer \(user)")
                    group.addTask { try await root.send(request).user }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            let afterUsers = try await root.send(Request<Resource>(.get, "cache/demo-users")).hit
            transcript.check(
                users == ["ada", "grace"] && afterUsers == 3,
                "two users' identical requests at once: the server counted \(afterUsers - 1), one per user"
            )
        } catch {
            transcript.check(false, "caching failed: \(error.localizedDescription)")
        }
    }
}
