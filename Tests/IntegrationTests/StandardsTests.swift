import Courier
import ExampleAPIs
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

/// A transport that waited on the challenge would end these calls with `timedOut` after the whole
/// 30-second timeout (URLSession on Linux waited for the whole timeout, 60 s by default); alone on a
/// quiet machine each answer takes a few milliseconds, and on a busy one a few seconds: half the
/// timeout tells the two apart.
@Suite("A 401 challenge is delivered at once, never waited on", .timingSensitive)
struct ChallengeTests {
    static let timeout: Duration = .seconds(30)
    static let bound: Duration = .seconds(15)

    @Test("a 401 with a Bearer challenge (RFC 6750) surfaces as unauthorized at once", arguments: TransportKind.allCases)
    func bearer(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client.social(environment: backends.environment, transport: backends.transport)
            client.configuration.timeout = Self.timeout
            let (result, elapsed) = await measure { await capture { try await client.response(for: SocialAPI.friends(of: 1)) } }
            #expect(result.error?.kind == .unauthorized)
            #expect(result.error?.responseHeaderFields?[.wwwAuthenticate]?.hasPrefix("Bearer realm=") == true)
            #expect(result.error?.message == "Authentication required")
            #expect(elapsed < Self.bound)
        }
    }

    @Test("a 401 with a Basic challenge surfaces as unauthorized in every call style", arguments: TransportKind.allCases)
    func basicChallengeEverywhere(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) { $0.timeout = Self.timeout }
            let protected = Request<JSONValue>(.get, "basic-auth/ada/lovelace")
            let (sent, elapsed) = await measure { await capture { try await client.send(protected) } }
            #expect(sent.error?.kind == .unauthorized)
            #expect(sent.error?.responseHeaderFields?[.wwwAuthenticate]?.hasPrefix("Basic realm=") == true)
            #expect(elapsed < Self.bound)

            let streamed = await capture { try await client.stream(protected) }
            #expect(streamed.error?.kind == .unauthorized)

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-401-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            let (downloaded, downloadTime) = await measure { await capture { try await client.download(protected, to: file) } }
            #expect(downloaded.error?.kind == .unauthorized)
            #expect(downloadTime < Self.bound)
            let (progressed, progressTime) = await measure {
                await capture { try await client.download(protected, to: file, progress: { _ in }) }
            }
            #expect(progressed.error?.kind == .unauthorized)
            #expect(progressTime < Self.bound)
        }
    }

    @Test("Basic credentials (RFC 7617) open the protected route", arguments: TransportKind.allCases)
    func basicCredentials(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                $0.middleware = [BasicAuthenticationMiddleware(username: "ada", password: "lovelace")]
            }
            let answer = try await client.send(Request<JSONValue>(.get, "basic-auth/ada/lovelace"))
            #expect(answer["authenticated"]?.boolValue == true)
            let wrong = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                $0.middleware = [BasicAuthenticationMiddleware(username: "ada", password: "wrong")]
            }
            let refused = await capture { try await wrong.send(Request<JSONValue>(.get, "basic-auth/ada/lovelace")) }
            #expect(refused.error?.kind == .unauthorized)
        }
    }
}

@Suite("Compressed responses are decoded on every transport, and bombs are refused")
struct CompressionTests {
    @Test("requests say which codings they accept", arguments: TransportKind.allCases)
    func acceptEncoding(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let echo = try await backends.echo().send(Request<Echo>(.get, "x"))
            let accepted = try #require(echo.header("accept-encoding")).lowercased()
            #expect(accepted.contains("gzip"))
            #expect(accepted.contains("deflate"))
        }
    }

    @Test("a gzip or deflate body is decoded before JSON decoding", arguments: TransportKind.allCases, ["gzip", "deflate"])
    func decoded(transport: TransportKind, coding: String) async throws {
        try await withBackends(transport) { backends in
            let client = backends.movies()
            let response = try await client.response(
                for: Request<MovieApiResponse>(.get, "movie/popular", query: ["page": 1])
                    .header(.init("X-Fault")!, "compress=\(coding)")
                    .header(.acceptEncoding, "identity")
            )
            #expect(response.headerFields[.contentEncoding] == coding)
            #expect(response.value.results.count == 20)
        }
    }

    @Test("the server compresses what the client accepts, as real servers do", arguments: TransportKind.allCases)
    func negotiated(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let response = try await backends.movies().response(for: MovieAPI.popular(page: 1))
            #expect(response.headerFields[.contentEncoding] == "gzip")
            #expect(response.value.results.count == 20)
        }
    }

    @Test("the size limit counts decoded bytes", arguments: TransportKind.allCases)
    func limitCountsDecodedBytes(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let plainSize = try await Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                .send(
                    Request<Data>(.get, "3/movie/popular", query: ["page": 1, "api_key": backends.server.movieAPIKey])
                        .header(.acceptEncoding, "identity")
                ).count
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                $0.maximumResponseBodySize = plainSize - 1
            }
            let result = await capture {
                try await client.send(Request<Data>(.get, "3/movie/popular", query: ["page": 1, "api_key": backends.server.movieAPIKey]))
            }
            #expect(result.error?.kind == .responseTooLarge)
        }
    }

    /// URLSession on Linux inflates what it has read on its one process-wide queue before Courier
    /// can stop the transfer: a bomb costs it CPU time (seconds per GiB, every URLSession request
    /// of the process waiting), though never memory. The test sends it a smaller bomb so that the
    /// suites running beside it are not held up.
    @Test(
        "a gzip bomb fails as responseTooLarge in bounded memory and time (1 GiB of zeros in about 1 MiB)",
        arguments: TransportKind.allCases.map { ($0, $0 == .urlSession ? 64 << 20 : 1 << 30) }, [false, true])
    func bomb(bomb: (transport: TransportKind, size: Int), withProgress: Bool) async throws {
        // With a progress handler AsyncHTTPClient's transport reads through its async API, without
        // one through its delegate API.
        let (transport, size) = bomb
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                $0.maximumResponseBodySize = 1024 * 1024
            }
            let before = ProcessResources.residentBytes
            let (result, elapsed) = await measure {
                await capture {
                    let request = Request<Data>(.get, "echo/x").header(.init("X-Fault")!, "gzip-bomb=\(size)")
                    return withProgress ? try await client.send(request, progress: { _ in }) : try await client.send(request)
                }
            }
            #expect(result.error?.kind == .responseTooLarge)
            #expect(elapsed < hangBound)
            // Other suites run beside this one, so the bound is loose; unbounded reading would
            // have grown by the bomb's whole size.
            #expect(ProcessResources.residentBytes - before < 256 << 20)
        }
    }
}

@Suite("Cookies follow the client's choice, the same on every transport")
struct CookieTests {
    @Test("without a jar nothing is kept: a cookie set by one call is not sent by the next", arguments: TransportKind.allCases)
    func noneByDefault(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            _ = try await client.send(Request<JSONValue>(.get, "cookies/set", query: ["session": "abc"]))
            let after = try await client.send(Request<JSONValue>(.get, "cookies"))
            #expect(after["cookies"] == .object([:]))
        }
    }

    @Test(
        "a jar keeps cookies per client, sends them where they belong, and forgets expired ones",
        arguments: TransportKind.allCases)
    func jar(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let jar = CookieJar()
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) { $0.cookieJar = jar }
            _ = try await client.send(Request<JSONValue>(.get, "cookies/set", query: ["session": "abc"]))
            _ = try await client.send(
                Request<JSONValue>(.get, "cookies/set-with", query: ["name": "scoped", "value": "1", "path": "/cookies/echo/deep"])
            )
            _ = try await client.send(Request<JSONValue>(.get, "cookies/set-with", query: ["name": "secure", "value": "1", "secure": true]))
            let root = try await client.send(Request<JSONValue>(.get, "cookies"))
            #expect(root["cookies"] == .object(["session": "abc"]))
            let deep = try await client.send(Request<JSONValue>(.get, "cookies/echo/deep/x"))
            #expect(deep["cookies"]?["scoped"] == "1")

            _ = try await client.send(Request<JSONValue>(.get, "cookies/delete", query: ["session": ""]))
            let afterDelete = try await client.send(Request<JSONValue>(.get, "cookies"))
            #expect(afterDelete["cookies"] == .object([:]))

            let other = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) { $0.cookieJar = CookieJar() }
            let separate = try await other.send(Request<JSONValue>(.get, "cookies"))
            #expect(separate["cookies"] == .object([:]))
        }
    }

    @Test(
        "a response's three Set-Cookie fields are three cookies in the jar, Expires dates and their commas included",
        arguments: TransportKind.allCases)
    func severalInOneResponse(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let jar = CookieJar()
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) { $0.cookieJar = jar }
            _ = try await client.send(Request<JSONValue>(.get, "cookies/set", query: ["a": "1", "b": "2", "c": "3"]))
            let plain = try await client.send(Request<JSONValue>(.get, "cookies"))
            #expect(plain["cookies"] == .object(["a": "1", "b": "2", "c": "3"]))

            _ = try await client.send(Request<JSONValue>(.get, "cookies/set-expiring", query: ["d": "4", "e": "5", "f": "6"]))
            let dated = try await client.send(Request<JSONValue>(.get, "cookies"))
            #expect(dated["cookies"] == .object(["a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "6"]))
            #expect(jar.cookies.filter { ["d", "e", "f"].contains($0.name) }.allSatisfy { $0.expires != nil })
        }
    }

    @Test("cookies set by a redirect response go with the redirected request", arguments: TransportKind.allCases)
    func acrossRedirect(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) { $0.cookieJar = CookieJar() }
            _ = try await client.send(Request<JSONValue>(.get, "cookies/set", query: ["hop": "1"]))
            let landed = try await client.send(Request<JSONValue>(.get, "redirect", query: ["to": "/cookies"]))
            #expect(landed["cookies"]?["hop"] == "1")
        }
    }
}

@Suite("A successful call can return its metadata with its value")
struct ResponseMetadataTests {
    @Test("status, header fields, final URL after redirects and attempts", arguments: TransportKind.allCases)
    func metadata(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let response = try await client.response(for: Request<Echo>(.get, "redirect", query: ["to": "/echo/landed"]))
            #expect(response.status == .ok)
            #expect(response.value.path == "/echo/landed")
            #expect(response.url.absoluteString == "\(backends.server.baseURL)/echo/landed")
            #expect(response.headerFields[.contentType]?.hasPrefix("application/json") == true)
            #expect(response.attempts == 1)

            let retrying = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 3, backoff: Backoff(base: .milliseconds(10))))]
            }
            let key = UUID().uuidString
            let retried = try await retrying.response(for: Request<JSONValue>(.get, "flaky/\(key)", query: ["failures": 2]))
            #expect(retried.attempts == 3)
            #expect(retried.url.absoluteString.hasPrefix("\(backends.server.baseURL)/flaky/\(key)"))
        }
    }

    @Test("the completion-handler style gets the same metadata", arguments: TransportKind.allCases)
    func completionStyle(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let result = await withCheckedContinuation { continuation in
                Task { @MainActor in
                    client.response(for: Request<Echo>(.get, "echo/handler")) { continuation.resume(returning: $0) }
                }
            }
            let response = try result.get()
            #expect(response.status == .ok)
            #expect(response.url.path == "/echo/handler")
        }
    }
}
