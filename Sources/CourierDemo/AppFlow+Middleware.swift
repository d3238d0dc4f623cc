import Courier
import ExampleAPIs
import Foundation
import Logging

/// The middleware steps of the demo: refresh, rate limit, retry, and the redacted log.
extension AppFlow {
    /// Concurrent requests with a stale access token: one refresh, then every request succeeds.
    func refreshOnce(_ auth: AuthService, me: User) async {
        transcript.heading("Token refresh (single flight)")
        guard let current = auth.session.tokens else {
            transcript.check(false, "not logged in")
            return
        }
        do {
            try auth.session.signIn(AuthTokens(accessToken: "stale-\(UUID().uuidString)", refreshToken: current.refreshToken))
            let social = Client.social(environment: environment, session: auth.session, transport: transport)
            let friends = FriendsService(client: social)
            let before = auth.session.refreshCount
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try await friends.load(for: me).count } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refreshes = auth.session.refreshCount - before
            transcript.check(
                counts.count == 10 && refreshes == 1,
                "10 concurrent requests with a stale token: \(refreshes) refresh, then all \(counts.count) succeeded"
            )
        } catch {
            transcript.check(false, "refresh failed: \(error.localizedDescription) — \(error)")
        }
        for line in transcript.logLines where line.contains("token/refresh") || line.contains("curl") {
            transcript.line("log: \(line)")
        }
        let leaked = transcript.logLines.contains { $0.contains(credentials.password) || $0.contains(current.accessToken) }
        transcript.check(!leaked, "\(transcript.logLines.count) log lines, no password or token in any of them")
    }

    /// 20 requests paced to 5 per second by the client, with a live progress line.
    func throttledBurst() async {
        transcript.heading("Rate limit: a burst of 20 paced to 5 per second")
        let client = Client(baseURL: rootURL, transport: transport) {
            $0.middleware = [RateLimitMiddleware(.perHost(5, per: .seconds(1), burst: 3))]
        }
        let started = ContinuousClock.now
        let total = 20
        // Counted from completions: the calls in flight rise from 0 as the burst starts, so a line
        // drawn from them alone would count down before it counts up.
        let showProgress = { (done: Int) in
            let bar = String(repeating: "#", count: done) + String(repeating: ".", count: total - done)
            transcript.progress("[\(bar)] \(done)/\(total) done, \(client.inFlightCount) in flight  ")
        }
        showProgress(0)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<total {
                group.addTask { (try? await client.send(Request<JSONValue>(.get, "limited", query: ["per_second": 5]))) != nil }
            }
            var results: [Bool] = []
            for await succeeded in group {
                results.append(succeeded)
                showProgress(results.count)
            }
            return results
        }
        let elapsed = ContinuousClock.now - started
        transcript.write("")
        transcript.check(
            results.allSatisfy { $0 } && elapsed >= .seconds(3),
            "all \(total) succeeded without a single 429, in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))"
        )
    }

    /// A GET answered 503 twice, retried with backoff until it succeeds.
    func retriedRoute() async {
        transcript.heading("Retry: 503, 503, then 200")
        struct Attempts: Decodable { var attempts: Int }
        let client = Client(baseURL: rootURL, transport: transport) {
            $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 4))]
        }
        do {
            let result = try await client.send(Request<Attempts>(.get, "flaky/demo-\(UUID().uuidString)", query: ["failures": 2]))
            transcript.check(result.attempts == 3, "succeeded on attempt \(result.attempts); a POST would not have been replayed")
        } catch {
            transcript.check(false, "retry failed: \(error.localizedDescription) — \(error)")
        }
    }
}
