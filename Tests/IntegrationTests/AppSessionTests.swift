import Courier
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("A session the app gives takes Courier's route: redirects, cookies and 401s are Courier's", .timingSensitive)
struct AppSessionTests {
    /// A delegate of the app's own, which would let URLSession follow redirects itself.
    final class AppDelegate: NSObject, URLSessionTaskDelegate, Sendable {}

    /// A `.default` session with the app's delegate: cookie and credential storage, redirects followed.
    static func appSession() -> URLSession {
        URLSession(configuration: .default, delegate: AppDelegate(), delegateQueue: nil)
    }

    func withAppClient<T>(
        _ configure: (inout Configuration) -> Void = { _ in },
        body: (Client, ReferenceServer) async throws -> T
    ) async throws -> T {
        let server = try await ReferenceServer.start()
        do {
            let client = Client(baseURL: BaseURL(server.baseURL), transport: .urlSession(Self.appSession()), configure: configure)
            let result = try await body(client, server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test("the session does not follow a redirect itself: Courier's limit and rules apply")
    func redirects() async throws {
        let noRedirects: (inout Configuration) -> Void = { $0.redirectLimit = 0 }
        try await withAppClient(noRedirects) { client, _ in
            let unfollowed = await capture { try await client.send(Request<JSONValue>(.get, "redirect/chain/1")) }
            #expect(unfollowed.error?.kind == .unexpectedStatus)
            #expect(unfollowed.error?.status == .found)
        }
        try await withAppClient { client, server in
            let target = "\(server.analyticsBaseURL)/echo/elsewhere"
            let echo = try await client.send(
                Request<Echo>(.get, "redirect", query: ["status": 302, "to": target], headerFields: [.authorization: "Bearer secret-token"])
            )
            #expect(echo.path == "/echo/elsewhere")
            #expect(echo.header("authorization") == nil)
        }
    }

    @Test("cookies stay out of the session's cookie storage and out of later requests")
    func cookies() async throws {
        try await withAppClient { client, server in
            _ = try await client.send(Request<JSONValue>(.get, "cookies/set", query: ["session": "abc"]))
            let after = try await client.send(Request<JSONValue>(.get, "cookies"))
            #expect(after["cookies"] == .object([:]))
            let url = try #require(URL(string: server.baseURL))
            let stored = URLSessionConfiguration.default.httpCookieStorage?.cookies(for: url) ?? []
            #expect(!stored.contains { $0.name == "session" })
        }
    }

    @Test("a 401 with a Basic challenge surfaces as unauthorized at once")
    func unauthorized() async throws {
        try await withAppClient { client, _ in
            let protected = Request<JSONValue>(.get, "basic-auth/ada/lovelace")
            let (result, elapsed) = await measure { await capture { try await client.send(protected) } }
            #expect(result.error?.kind == .unauthorized)
            #expect(result.error?.responseHeaderFields?[.wwwAuthenticate]?.hasPrefix("Basic realm=") == true)
            #expect(elapsed < hangBound)
        }
    }

    @Test("a body over the size limit stops the transfer with responseTooLarge")
    func sizeLimit() async throws {
        let small: (inout Configuration) -> Void = { $0.maximumResponseBodySize = 1024 }
        try await withAppClient(small) { client, server in
            let result = await capture {
                try await client.send(Request<Data>(.get, "3/movie/popular", query: ["page": 1, "api_key": server.movieAPIKey]))
            }
            #expect(result.error?.kind == .responseTooLarge)
        }
    }
}
