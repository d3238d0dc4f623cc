@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import TestSupport
import Testing

/// The cache's rules, each against a stub transport and a wall clock the test moves.
@Suite("The HTTP cache follows RFC 9111 as a private cache")
struct CachingMiddlewareTests {
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    let stub = StubTransport()
    let date = MovableDate(Date(timeIntervalSince1970: 1_800_000_000))
    let cache = ResponseCache()

    func client(rules: CacheRules = CacheRules()) -> Client {
        let date = date
        return Client(baseURL: "https://api.example.com", transport: stub) {
            $0.middleware = [CachingMiddleware(cache, rules: rules)]
            $0.currentDate = { date.now }
        }
    }

    func answer(_ fields: HTTPFields, status: HTTPResponse.Status = .ok, body: String = #"{"n":1}"#) -> StubResponse {
        var fields = fields
        fields[.date] = Self.httpDate(date.now)
        fields[.contentType] = "application/json"
        return .status(status, headerFields: fields, body: Data(body.utf8))
    }

    let item = Request<JSONValue>(.get, "item")

    @Test("only-if-cached with nothing stored fails as notCached and sends nothing")
    func onlyIfCachedEmpty() async {
        let result = await capture { try await client().send(item.cachePolicy(.onlyIfCached)) }
        #expect(result.error?.kind == .notCached)
        #expect(stub.requests.isEmpty)
    }

    @Test("only-if-cached serves a stale response without asking the server")
    func onlyIfCachedStale() async throws {
        stub.answer(.get("/item"), with: answer([.cacheControl: "max-age=10"]))
        let client = client()
        _ = try await client.send(item)
        date.advance(seconds: 3600)
        let offline = try await client.response(for: item.cachePolicy(.onlyIfCached))
        #expect(offline.source == .cache)
        #expect(stub.requests.count == 1)
    }

    @Test("reload passes the cache by; revalidate sends the validators even while fresh")
    func perRequestPolicies() async throws {
        stub.answer(.get("/item"), with: answer([.cacheControl: "max-age=600", .eTag: "\"a\""]))
        let client = client()
        _ = try await client.send(item)
        #expect(try await client.response(for: item.cachePolicy(.reload)).source == .network)
        #expect(stub.requests.last?.headerFields[.ifNoneMatch] == nil)
        stub.answer(.get("/item"), with: answer([.cacheControl: "max-age=600", .eTag: "\"a\""], status: .notModified, body: ""))
        let confirmed = try await client.response(for: item.cachePolicy(.revalidate))
        #expect(confirmed.source == .revalidated)
        #expect(stub.requests.last?.headerFields[.ifNoneMatch] == "\"a\"")
        #expect(stub.requests.count == 3)
    }

    @Test("max-stale serves a stale response, except one that must be revalidated")
    func maxStale() async throws {
        stub.answer(.get("/a"), with: answer([.cacheControl: "max-age=10"]))
        stub.answer(.get("/b"), with: answer([.cacheControl: "max-age=10, must-revalidate"]))
        let client = client()
        let a = Request<JSONValue>(.get, "a")
        let b = Request<JSONValue>(.get, "b")
        _ = try await client.send(a)
        _ = try await client.send(b)
        date.advance(seconds: 70)
        #expect(try await client.response(for: a.cachePolicy(.allowingStale(upTo: .seconds(120)))).source == .cache)
        #expect(try await client.response(for: a.cachePolicy(.allowingStale(upTo: .seconds(30)))).source == .network)
        #expect(try await client.response(for: b.cachePolicy(.allowingStale())).source == .network)
    }

    @Test("stale-if-error serves the stored response after a 503 or a lost connection, within its window")
    func staleIfError() async throws {
        stub.answer(.get("/item"), with: answer([.cacheControl: "max-age=10, stale-if-error=600"]))
        let client = client()
        _ = try await client.send(item)
        date.advance(seconds: 60)
        stub.answer(.get("/item"), with: .status(.serviceUnavailable))
        #expect(try await client.response(for: item).source == .cache)
        stub.answer(.get("/item"), with: .failure(.offline))
        #expect(try await client.response(for: item).source == .cache)
        date.advance(seconds: 3600)
        #expect(await capture { try await client.send(item) }.error?.kind == .notConnected)

        var strict = CacheRules()
        strict.servesStaleOnError = false
        let other = Request<JSONValue>(.get, "other")
        stub.answer(.get("/other"), with: answer([.cacheControl: "max-age=10, stale-if-error=600"]))
        _ = try await self.client(rules: strict).send(other)
        date.advance(seconds: 60)
        stub.answer(.get("/other"), with: .failure(.offline))
        #expect(await capture { try await self.client(rules: strict).send(other) }.error?.kind == .notConnected)
    }

    @Test("a 304 with another ETag is not trusted: the request is sent again without validators")
    func mismatchedNotModified() async throws {
        stub.answer(
            .get("/item"),
            with: answer([.eTag: "\"a\""], body: #"{"n":1}"#),
            answer([.eTag: "\"b\""], status: .notModified, body: ""),
            answer([.eTag: "\"c\""], body: #"{"n":3}"#)
        )
        let client = client()
        _ = try await client.send(item)
        let result = try await client.response(for: item)
        #expect(result.source == .network)
        #expect(result.value == ["n": 3])
        #expect(stub.requests.map { $0.headerFields[.ifNoneMatch] } == [nil, "\"a\"", nil])
    }

    @Test("a 304 without Vary, or with another, serves the variant that was asked for")
    func notModifiedVary() async throws {
        stub.answer(.get("/item")) { request in
            let language = request.headerFields[.acceptLanguage] ?? ""
            if request.headerFields[.ifNoneMatch] != nil {
                return .status(.notModified, headerFields: language == "en" ? [:] : [.vary: "Accept-Encoding"])
            }
            return answer([.eTag: "\"\(language)\"", .vary: "Accept-Language"], body: #"{"language":"\#(language)"}"#)
        }
        let client = client()
        for language in ["en", "fr"] { _ = try await client.send(item.header(.acceptLanguage, language)) }
        for language in ["en", "fr", "en"] {
            let result = try await client.response(for: item.header(.acceptLanguage, language))
            #expect(result.source == .revalidated)
            #expect(result.value == ["language": .string(language)])
        }
    }

    @Test("heuristic freshness from Last-Modified: a tenth of its age, capped, and off when the app says so")
    func heuristicFreshness() async throws {
        let modified = Self.httpDate(date.now.addingTimeInterval(-86_400 * 30))
        stub.answer(.get("/item"), with: answer([.lastModified: modified]))
        let client = client()
        _ = try await client.send(item)
        date.advance(seconds: 3600)
        #expect(try await client.response(for: item).source == .cache, "fresh for a tenth of 30 days, capped at one day")
        date.advance(seconds: 86_400)
        stub.answer(.get("/item"), with: answer([.lastModified: modified], status: .notModified, body: ""))
        #expect(try await client.response(for: item).source == .revalidated)
        #expect(stub.requests.last?.headerFields[.ifModifiedSince] == modified)

        var rules = CacheRules()
        rules.heuristicFraction = nil
        let other = Request<JSONValue>(.get, "other")
        stub.answer(.get("/other"), with: answer([.lastModified: modified]))
        let strict = self.client(rules: rules)
        _ = try await strict.send(other)
        stub.answer(.get("/other"), with: answer([.lastModified: modified], status: .notModified, body: ""))
        #expect(try await strict.response(for: other).source == .revalidated)
    }

    @Test("Expires against Date; an unreadable Expires is already expired")
    func expires() async throws {
        stub.answer(.get("/a"), with: answer([.expires: Self.httpDate(date.now.addingTimeInterval(120))]))
        stub.answer(.get("/b"), with: answer([.expires: "0"]))
        let client = client()
        let a = Request<JSONValue>(.get, "a")
        let b = Request<JSONValue>(.get, "b")
        _ = try await client.send(a)
        _ = try await client.send(b)
        date.advance(seconds: 60)
        #expect(try await client.response(for: a).source == .cache)
        #expect(try await client.response(for: b).source == .network)
        date.advance(seconds: 61)
        #expect(try await client.response(for: a).source == .network)
    }

    @Test("an Age from the server counts against max-age")
    func ageField() async throws {
        stub.answer(.get("/item"), with: answer([.cacheControl: "max-age=100", .age: "90"]))
        let client = client()
        _ = try await client.send(item)
        date.advance(seconds: 5)
        #expect(try await client.response(for: item).source == .cache)
        date.advance(seconds: 6)
        #expect(try await client.response(for: item).source == .network)
    }

    @Test("206, Vary: * and no-store are never stored; neither are Set-Cookie or credential fields")
    func neverStored() async throws {
        stub.answer(.get("/partial"), with: answer([.cacheControl: "max-age=60"], status: .partialContent))
        stub.answer(.get("/star"), with: answer([.cacheControl: "max-age=60", .vary: "*"]))
        stub.answer(.get("/secret"), with: answer([.cacheControl: "max-age=60, no-store"]))
        stub.answer(.get("/cookie"), with: answer([.cacheControl: "max-age=60", .setCookie: "session=abc", HTTPField.Name("X-Auth-Token")!: "t0k3n"]))
        let client = client()
        for path in ["partial", "star", "secret"] {
            let request = Request<Data>(.get, Path(stringLiteral: path))
            _ = await capture { try await client.send(request) }
            #expect(try await client.response(for: request).source == .network, "\(path)")
        }
        let cookie = Request<JSONValue>(.get, "cookie")
        _ = try await client.send(cookie)
        let served = try await client.response(for: cookie)
        #expect(served.source == .cache)
        #expect(served.headerFields[.setCookie] == nil)
        #expect(served.headerFields[HTTPField.Name("X-Auth-Token")!] == nil)
    }

    @Test("streams and downloads pass the cache by")
    func streamsPassBy() async throws {
        stub.answer(.get("/item"), with: answer([.cacheControl: "max-age=60"]))
        let client = client()
        for _ in 0..<2 {
            let stream = try await client.stream(Request<Data>(.get, "item"))
            for try await _ in stream {}
        }
        #expect(stub.requests.count == 2)
        #expect(cache.size.memory == 0)
    }

    @Test("the memory store keeps its byte limit, the least recently used evicted first")
    func memoryLimit() async throws {
        let small = ResponseCache(memoryLimit: 1200)
        let date = date
        let client = Client(baseURL: "https://api.example.com", transport: stub) {
            $0.middleware = [CachingMiddleware(small)]
            $0.currentDate = { date.now }
        }
        let body = "[" + String(repeating: "1,", count: 150) + "1]"
        for path in ["a", "b", "c"] {
            stub.answer(.get("/\(path)"), with: answer([.cacheControl: "max-age=60"], body: body))
        }
        let a = Request<JSONValue>(.get, "a")
        let b = Request<JSONValue>(.get, "b")
        let c = Request<JSONValue>(.get, "c")
        _ = try await client.send(a)
        _ = try await client.send(b)
        _ = try await client.send(a)  // a is now the most recently used
        _ = try await client.send(c)
        #expect(small.size.memory <= 1200)
        #expect(try await client.response(for: a).source == .cache)
        #expect(try await client.response(for: b).source == .network, "b was the least recently used")
    }
}
