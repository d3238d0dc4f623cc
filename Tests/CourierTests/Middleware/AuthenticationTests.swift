@testable import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

@Suite("Authentication: tokens added, one refresh for many refusals, stores and schemes")
struct AuthenticationTests {
    @Test("50 concurrent requests refused with a stale token cause one refresh, then all succeed")
    func singleFlightRefresh() async throws {
        let refreshes = LockedBox(0)
        let session = AuthenticationSession(store: InMemoryTokenStore(AuthTokens(accessToken: "stale", refreshToken: "r1"))) { _ in
            refreshes.mutate { $0 += 1 }
            try await Task.sleep(for: .milliseconds(50))
            return AuthTokens(accessToken: "fresh", refreshToken: "r2")
        }
        let transport = StubTransport.accepting(bearer: "fresh")
        let client = Client(baseURL: "https://api.example.com", transport: transport) {
            $0.middleware = [AuthenticationMiddleware(session)]
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 { group.addTask { try await client.send(Request<Void>(.get, "items/\(index)")) } }
            try await group.waitForAll()
        }
        #expect(refreshes.value == 1)
        #expect(session.refreshCount == 1)
        #expect(transport.requests(matching: RequestMatcher().header(.authorization, "Bearer fresh")).count == 50)
    }

    @Test("a refused refresh fails every waiting request as unauthorized and reports the expiry once")
    func refusedRefresh() async throws {
        let session = AuthenticationSession(store: InMemoryTokenStore(AuthTokens(accessToken: "stale", refreshToken: "revoked"))) { _ in
            try await Task.sleep(for: .milliseconds(20))
            throw CourierError(.unauthorized, message: "Session expired")
        }
        var events = session.events.makeAsyncIterator()
        let client = Client(baseURL: "https://api.example.com", transport: StubTransport.accepting(bearer: "fresh")) {
            $0.middleware = [AuthenticationMiddleware(session)]
        }
        let results = await withTaskGroup(of: Result<Void, CourierError>.self) { group in
            for _ in 0..<20 { group.addTask { await capture { try await client.send(Request<Void>(.get, "items")) } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.kind == .unauthorized } else { false } })
        #expect(session.refreshCount == 1)
        #expect(await events.next() == .expired)
        _ = await capture { try await client.send(Request<Void>(.get, "again")) }
        #expect(session.refreshCount == 1, "no refresh until the next sign-in")
    }

    @Test("login-style requests carry no token and do not trigger a refresh")
    func optOut() async throws {
        let session = AuthenticationSession(store: InMemoryTokenStore(AuthTokens(accessToken: "stale", refreshToken: "r"))) { _ in
            Issue.record("no refresh expected")
            return AuthTokens(accessToken: "x")
        }
        let transport = StubTransport.accepting(bearer: "fresh")
        let client = Client(baseURL: "https://api.example.com", transport: transport) {
            $0.middleware = [AuthenticationMiddleware(session)]
        }
        _ = await capture { try await client.send(Request<Void>(.post, "login").withoutAuthentication()) }
        #expect(transport.requests.map { $0.headerFields[.authorization] } == [nil])
    }

    @Test("schemes put the token in the Authorization header, another header, or the query")
    func schemes() {
        let base = HTTPRequest(method: .get, scheme: "https", authority: "a.example", path: "/v1/me?lang=en")
        var request = base
        AuthenticationScheme.bearer.apply("abc", to: &request)
        #expect(request.headerFields[.authorization] == "Bearer abc")
        AuthenticationScheme.jwt.apply("abc", to: &request)
        #expect(request.headerFields[.authorization] == "JWT abc")
        request = base
        AuthenticationScheme.header(.xRequestID, prefix: "Token ").apply("abc", to: &request)
        #expect(request.headerFields[.xRequestID] == "Token abc")
        request = base
        AuthenticationScheme.query("access_token").apply("a b+c", to: &request)
        #expect(request.path == "/v1/me?lang=en&access_token=a%20b%2Bc")
    }

    @Test("tokens never show in descriptions")
    func description() {
        let text = "\(AuthTokens(accessToken: "secret-access", refreshToken: "secret-refresh"))"
        #expect(!text.contains("secret"))
    }
}
