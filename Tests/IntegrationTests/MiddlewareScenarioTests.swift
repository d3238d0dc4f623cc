import Courier
import ExampleAPIs
import Foundation
import Logging
import ReferenceServer
import TestSupport
import Testing

struct Attempts: Decodable, Sendable {
    var key: String
    var attempts: Int
}

@Suite("Middleware against the reference server: refresh, retry, rate limits and logs", .timingSensitive)
struct MiddlewareScenarioTests {
    let demo = ReferenceServer.demoCredentials

    /// A client for the server's root, with the given middleware.
    func root(_ backends: ReferenceBackends, _ middleware: [any Middleware]) -> Client {
        Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
            $0.errorFormat = .message
            $0.middleware = middleware
        }
    }

    @Test("50 concurrent requests with an expired token cause exactly one refresh, and all 50 succeed", arguments: TransportKind.allCases)
    func singleRefresh(transport: TransportKind) async throws {
        var options = ReferenceServer.Options()
        options.tokenLifetime = .milliseconds(1500)
        options.refreshedTokenLifetime = .seconds(120)
        try await withBackends(transport, options: options) { backends in
            let auth = AuthService(client: backends.auth())
            let login = try await auth.authenticate(email: demo.email, password: demo.password)
            // Without an expiry date the client cannot renew early: the server's 401 must trigger it.
            try auth.session.signIn(AuthTokens(accessToken: login.token, refreshToken: login.refreshToken))
            let friends = FriendsService(client: .social(environment: backends.environment, session: auth.session, transport: backends.transport))
            try await Task.sleep(for: .milliseconds(1700))
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { try await friends.load(for: User(id: 1)).count } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 8, count: 50))
            let refreshes = await backends.server.refreshCount
            #expect(refreshes == 1)
            #expect(auth.session.refreshCount == 1)
        }
    }

    @Test("when the refresh is refused, all 50 fail as unauthorized and the app hears the session expired", arguments: TransportKind.allCases)
    func failedRefresh(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let auth = AuthService(client: backends.auth())
            let login = try await auth.authenticate(email: demo.email, password: demo.password)
            try await auth.logout()  // the server forgets both tokens
            try auth.session.signIn(AuthTokens(accessToken: login.token, refreshToken: login.refreshToken))
            var events = auth.session.events.makeAsyncIterator()
            let friends = FriendsService(client: .social(environment: backends.environment, session: auth.session, transport: backends.transport))
            let results = await withTaskGroup(of: Result<[User], CourierError>.self) { group in
                for _ in 0..<50 { group.addTask { await capture { try await friends.load(for: User(id: 1)) } } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let kinds = results.map { result -> CourierError.Kind? in
                if case .failure(let error) = result { error.kind } else { nil }
            }
            #expect(kinds == Array(repeating: .unauthorized, count: 50))
            #expect(auth.session.refreshCount == 1)
            #expect(await events.next() == .expired)
        }
    }

    /// A session that renews by logging in again (as an app does with a password kept in the
    /// Keychain): its tokens never hold a refresh token.
    func reLoginSession(_ backends: ReferenceBackends, logins: LockedBox<Int>) -> AuthenticationSession {
        let auth = backends.auth()
        return AuthenticationSession { [demo] current in
            #expect(current.refreshToken == nil)
            logins.increment()
            let login = try await auth.send(AuthAPI.authenticate(email: demo.email, password: demo.password))
            return AuthTokens(accessToken: login.token)
        }
    }

    @Test("a token without a refresh token is renewed by the refresh closure when the server answers 401", arguments: TransportKind.allCases)
    func refreshWithoutRefreshToken(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let logins = LockedBox(0)
            let session = reLoginSession(backends, logins: logins)
            // A token the client holds as valid (no expiry known) and the server no longer
            // accepts: its answer is the 401 that starts the renewal. The renewed token lives as
            // long as the server's default, so no wait of the test can outlast it.
            try session.signIn(AuthTokens(accessToken: "revoked-by-the-server"))
            let friends = FriendsService(client: .social(environment: backends.environment, session: session, transport: backends.transport))
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try await friends.load(for: User(id: 1)).count } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 8, count: 10))
            #expect(logins.value == 1)
            #expect(session.refreshCount == 1)
        }
    }

    @Test("a token known to have expired is renewed before it is sent, without a refresh token", arguments: TransportKind.allCases)
    func expiredWithoutRefreshToken(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let logins = LockedBox(0)
            let session = reLoginSession(backends, logins: logins)
            try session.signIn(AuthTokens(accessToken: "stale", expiresAt: Date(timeIntervalSinceNow: -60)))
            let friends = FriendsService(client: .social(environment: backends.environment, session: session, transport: backends.transport))
            #expect(try await friends.load(for: User(id: 1)).count == 8)
            #expect(logins.value == 1)
            #expect(session.tokens?.accessToken != "stale")
        }
    }

    @Test("a POST answered 503 is not retried; a GET is retried and succeeds on the third attempt", arguments: TransportKind.allCases)
    func retries(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = root(backends, [RetryMiddleware(.exponential(maxAttempts: 3, backoff: Backoff(base: .milliseconds(20))))])
            let post = await capture { try await client.send(Request<Attempts>(.post, "flaky/post", query: ["failures": 2])) }
            #expect(post.error?.kind == .serverError)
            let postHits = await backends.server.hits(forKey: "post")
            #expect(postHits == 1)

            let get = try await client.send(Request<Attempts>(.get, "flaky/get", query: ["failures": 2]))
            #expect(get.attempts == 3)

            let keyed = try await client.send(
                Request<Attempts>(.post, "flaky/keyed", query: ["failures": 1]).header(.idempotencyKey, "order-1")
            )
            #expect(keyed.attempts == 2)
        }
    }

    @Test("429 with Retry-After: 1 waits a second, then succeeds", arguments: TransportKind.allCases)
    func retryAfter(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = root(backends, [RetryMiddleware(.exponential(backoff: Backoff(base: .milliseconds(1))))])
            let (result, elapsed) = try await measure {
                try await client.send(Request<Attempts>(.get, "flaky/busy", query: ["failures": 1, "status": 429, "retry_after": 1]))
            }
            #expect(result.attempts == 2)
            #expect(elapsed >= .seconds(1) && elapsed < .seconds(1) + hangBound)
        }
    }

    @Test("a burst paced by the rate limiter gets no 429, where the same burst unpaced does", arguments: TransportKind.allCases)
    func rateLimit(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            // The server's bucket holds 11 requests and refills at 10/s; the client paces at half
            // that rate with bursts of 2. A request then reaches the server early enough to be
            // refused only if a busy machine holds the requests back for more than 1.8 s and
            // delivers them bunched together (2 + 5 × (t + 1.8) requests against 11 + 10 × t over
            // any t seconds).
            let paced = root(backends, [RateLimitMiddleware(.perHost(5, per: .seconds(1), burst: 2))])
            let (results, elapsed) = await measure {
                await withTaskGroup(of: Result<JSONValue, CourierError>.self) { group in
                    for _ in 0..<10 {
                        group.addTask { await capture { try await paced.send(Request<JSONValue>(.get, "limited", query: ["per_second": 10])) } }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(results.count == 10)
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            let pacedRejections = await backends.server.rateLimitRejections
            #expect(pacedRejections == 0)
            #expect(elapsed >= .milliseconds(1500), "after the burst of 2, eight requests went 200 ms apart")

            try await Task.sleep(for: .seconds(1))  // let the server's bucket fill again
            let unpaced = root(backends, [])
            // Forty separate requests: identical calls in flight would otherwise be sent once.
            unpaced.configuration.coalescesRequests = false
            // Forty at once: more than the server's bucket holds even when a busy machine spreads
            // them over a second or two.
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask { _ = await capture { try await unpaced.send(Request<JSONValue>(.get, "limited", query: ["per_second": 10])) } }
                }
            }
            let unpacedRejections = await backends.server.rateLimitRejections
            #expect(unpacedRejections > 0)
        }
    }

    @Test("logs of login, refresh and authorized calls contain no token, password or cookie", arguments: TransportKind.allCases)
    func logsRedacted(transport: TransportKind) async throws {
        var options = ReferenceServer.Options()
        options.tokenLifetime = .milliseconds(1500)
        options.refreshedTokenLifetime = .seconds(120)
        try await withBackends(transport, options: options) { backends in
            let lines = LockedBox<[String]>([])
            var logger = Logger(label: "courier.tests") { _ in LogCapture(lines: lines, logLevel: .debug) }
            logger.logLevel = .trace
            let authClient = backends.auth()
            authClient.configuration.middleware.append(LoggingMiddleware(logger: logger))
            let auth = AuthService(client: authClient)
            let login = try await auth.authenticate(email: demo.email, password: demo.password)
            let social = Client.social(environment: backends.environment, session: auth.session, transport: backends.transport)
            social.configuration.middleware.append(LoggingMiddleware(logger: logger))
            social.configuration.commonParameters.headerFields[.cookie] = "sid=cookie-value-1234"
            try await Task.sleep(for: .milliseconds(1700))
            _ = try await FriendsService(client: social).load(for: User(id: 1))
            let renewed = try #require(auth.session.tokens)
            #expect(renewed.accessToken != login.token, "the token was refreshed while logged")

            let log = lines.all.joined(separator: "\n")
            #expect(lines.all.count >= 6)
            #expect(log.contains("POST http://127.0.0.1:\(backends.server.port)/authenticate → 200"))
            #expect(log.contains("curl -X POST"))
            for secret in [demo.password, login.token, login.refreshToken, renewed.accessToken, renewed.refreshToken ?? "-", "cookie-value-1234"] {
                #expect(!log.contains(secret))
            }
        }
    }
}
