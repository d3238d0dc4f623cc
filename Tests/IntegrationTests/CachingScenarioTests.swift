import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime
import ReferenceServer
import TestSupport
import Testing

/// The HTTP cache and request coalescing against the reference server's `/cache` routes, on
/// every transport: what reaches the server is counted by the server itself.
@Suite("Caching and coalescing over real sockets", .timingSensitive)
struct CachingScenarioTests {
    struct Resource: Decodable, Sendable, Equatable {
        var key: String
        var version: Int
        var hit: Int
        var language: String
        var user: String
    }

    static func client(_ backends: ReferenceBackends, cache: ResponseCache?, date: MovableDate = MovableDate()) -> Client {
        Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
            if let cache { $0.middleware = [CachingMiddleware(cache)] }
            $0.currentDate = { date.now }
        }
    }

    static func resource(_ key: String, _ query: QueryParameters = [:]) -> Request<Resource> {
        Request<Resource>(.get, "cache/\(key)", query: query)
    }

    @Test("100 identical GETs in flight reach the server once; other credentials are not merged", arguments: TransportKind.allCases)
    func coalescing(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Self.client(backends, cache: nil)
            let slow = Self.resource("together", ["delay_ms": 1500])
            let results = await withTaskGroup(of: Result<Resource, CourierError>.self) { group in
                for _ in 0..<100 { group.addTask { await capture { try await client.send(slow) } } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 100)
            #expect(results.allSatisfy { (try? $0.get())?.hit == 1 }, "every caller got the one response")
            #expect(await backends.server.cacheHits(forKey: "together") == 1)

            let users = await withTaskGroup(of: Result<Resource, CourierError>.self) { group in
                for index in 0..<40 {
                    let user = index.isMultiple(of: 2) ? "alice" : "bob"
                    let request = Self.resource("apart", ["delay_ms": 1500]).header(.authorization, "Bearer \(user)")
                    group.addTask { await capture { try await client.send(request) } }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(users.compactMap { try? $0.get().user }) == ["alice", "bob"])
            #expect(await backends.server.cacheHits(forKey: "apart") == 2, "one request per user")
        }
    }

    @Test("a response fresh for max-age is served from the cache until it expires on the test clock", arguments: TransportKind.allCases)
    func freshUntilExpiry(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let date = MovableDate()
            let client = Self.client(backends, cache: ResponseCache(), date: date)
            let fresh = Self.resource("fresh", ["max_age": 60])
            let first = try await client.response(for: fresh)
            #expect(first.source == .network)
            date.advance(seconds: 30)
            let second = try await client.response(for: fresh)
            #expect(second.source == .cache)
            #expect(second.value == first.value)
            #expect(second.headerFields[.age].flatMap { Int($0) } ?? 0 >= 30)
            #expect(await backends.server.cacheHits(forKey: "fresh") == 1)
            date.advance(seconds: 31)
            let third = try await client.response(for: fresh)
            #expect(third.source == .network)
            #expect(third.value.hit == 2)
            #expect(await backends.server.cacheHits(forKey: "fresh") == 2)
        }
    }

    @Test("an ETag leads to a conditional request, a 304, and the stored body with merged fields", arguments: TransportKind.allCases)
    func revalidation(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Self.client(backends, cache: ResponseCache())
            let tagged = Self.resource("tagged", ["etag": 1])
            let first = try await client.response(for: tagged)
            let second = try await client.response(for: tagged)
            #expect(first.source == .network)
            #expect(second.source == .revalidated)
            #expect(second.status == .ok)
            #expect(second.value == first.value, "the stored body, decoded")
            #expect(second.headerFields[HTTPField.Name("X-Revalidated")!] == "1", "the 304's fields merged")
            #expect(second.headerFields[.contentType]?.hasPrefix("application/json") == true, "the stored Content-Type kept")
            #expect(await backends.server.validatorsSent(forKey: "tagged") == ["", "\"tagged-v1\""])
            #expect(await backends.server.notModifiedCount(forKey: "tagged") == 1)

            let dated = Self.resource("dated", ["last_modified": 3600, "max_age": 0])
            _ = try await client.response(for: dated)
            let confirmed = try await client.response(for: dated)
            #expect(confirmed.source == .revalidated)
            #expect(await backends.server.notModifiedCount(forKey: "dated") == 1)
        }
    }

    @Test("Vary variants are kept apart, and no-store is never stored", arguments: TransportKind.allCases)
    func variantsAndNoStore(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let cache = ResponseCache()
            let client = Self.client(backends, cache: cache)
            let varying = Self.resource("varying", ["vary": "Accept-Language", "max_age": 60])
            var languages: [String: ResponseSource] = [:]
            for language in ["en", "fr", "en", "fr"] {
                let response = try await client.response(for: varying.header(.acceptLanguage, language))
                #expect(response.value.language == language)
                languages[language] = response.source
            }
            #expect(languages == ["en": .cache, "fr": .cache])
            #expect(await backends.server.cacheHits(forKey: "varying") == 2)

            let unstored = Self.resource("unstored", ["no_store": 1, "max_age": 60])
            let before = cache.size.memory
            for _ in 0..<3 { #expect(try await client.response(for: unstored).source == .network) }
            #expect(await backends.server.cacheHits(forKey: "unstored") == 3)
            #expect(cache.size.memory == before)
        }
    }

    @Test("a POST invalidates the stored response of its URL and of its Location", arguments: TransportKind.allCases)
    func invalidation(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Self.client(backends, cache: ResponseCache())
            let item = Self.resource("item", ["max_age": 60])
            #expect(try await client.send(item).version == 1)
            #expect(try await client.response(for: item).source == .cache)
            try await client.send(Request<Void>(.put, "cache/item", query: ["max_age": 60]))
            let changed = try await client.response(for: item)
            #expect(changed.source == .network)
            #expect(changed.value.version == 2)

            let listed = Self.resource("listed", ["max_age": 60])
            _ = try await client.send(listed)
            try await client.send(Request<Void>(.post, "cache/listed/items"))
            let afterCreate = try await client.response(for: listed)
            #expect(afterCreate.source == .network, "invalidated through Location")
            #expect(afterCreate.value.version == 2)
        }
    }

    @Test("the disk store serves a new client after a restart and drops a torn entry", arguments: TransportKind.allCases)
    func diskStore(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let lasting = Self.resource("lasting", ["max_age": 600, "api_key": "secret-key-123"])
            let first = try ResponseCache(directory: directory)
            _ = try await Self.client(backends, cache: first).send(lasting)
            await first.synchronize()

            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(names.count == 1)
            #expect(!names.joined().contains("lasting") && !names.joined().contains("secret"), "file names are hashes")
            let file = directory.appendingPathComponent(names[0])
            let stored = try Data(contentsOf: file)
            #expect(stored.range(of: Data("secret-key-123".utf8)) == nil, "no URL with its key on disk")

            let restarted = try ResponseCache(directory: directory)
            let served = try await Self.client(backends, cache: restarted).response(for: lasting)
            #expect(served.source == .cache)
            #expect(await backends.server.cacheHits(forKey: "lasting") == 1)

            try stored.prefix(stored.count / 2).write(to: file)
            let afterTear = try ResponseCache(directory: directory)
            let refetched = try await Self.client(backends, cache: afterTear).response(for: lasting)
            #expect(refetched.source == .network, "a torn entry is never served")
            #expect(await backends.server.cacheHits(forKey: "lasting") == 2)
        }
    }

    @Test("a signed-out identity, or another one, gets nothing from the cache", arguments: TransportKind.allCases)
    func identities(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Self.client(backends, cache: ResponseCache())
            let mine = Self.resource("mine", ["max_age": 60, "private": 1])
            let alice = try await client.response(for: mine.header(.authorization, "Bearer alice"))
            let again = try await client.response(for: mine.header(.authorization, "Bearer alice"))
            #expect(alice.value.user == "alice")
            #expect(again.source == .cache)
            let signedOut = try await client.response(for: mine)
            #expect(signedOut.source == .network)
            #expect(signedOut.value.user == "")
            let bob = try await client.response(for: mine.header(.authorization, "Bearer bob"))
            #expect(bob.source == .network)
            #expect(bob.value.user == "bob")
            #expect(await backends.server.cacheHits(forKey: "mine") == 3)
        }
    }
}

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("A URLSession's own URLCache is passed by while the client caches", .timingSensitive)
struct URLCacheBypassTests {
    /// A cache middleware of a third party's: it only says that it caches.
    struct OwnCache: Middleware {
        func intercept(
            _ request: HTTPRequest,
            body: HTTPBody?,
            context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> MiddlewareResponse {
            var context = context
            context.isCachedByClient = true
            return try await next(request, body, context)
        }
    }

    /// A `URLCache` in memory only (Apple platforms deprecate the `diskPath:` initialiser, which
    /// is the only one swift-corelibs-foundation has).
    static func memoryCache() -> URLCache {
        #if canImport(FoundationNetworking)
        URLCache(memoryCapacity: 4 << 20, diskCapacity: 0, diskPath: nil)
        #else
        URLCache(memoryCapacity: 4 << 20, diskCapacity: 0, directory: nil)
        #endif
    }

    @Test(
        "with a cache middleware, CachingMiddleware or one's own, nothing is served from or kept in the session's URLCache",
        arguments: [false, true])
    func twoCachesNeverStack(ownCache: Bool) async throws {
        try await withBackends(.urlSession) { backends in
            let urlCache = Self.memoryCache()
            let configuration = URLSession.courierConfiguration()
            configuration.urlCache = urlCache
            configuration.requestCachePolicy = .useProtocolCachePolicy
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: .urlSession(session)) {
                $0.middleware = [ownCache ? OwnCache() as any Middleware : CachingMiddleware(ResponseCache())]
            }
            let passing = Request<Data>(.get, "cache/bypassed", query: ["max_age": 600]).cachePolicy(.reload)
            for _ in 0..<3 { #expect(try await client.response(for: passing).source == .network) }
            #expect(await backends.server.cacheHits(forKey: "bypassed") == 3, "neither cache answered")
            let url = try #require(URL(string: "\(backends.server.baseURL)/cache/bypassed?max_age=600"))
            #expect(urlCache.cachedResponse(for: URLRequest(url: url)) == nil)
        }
    }
}
