@testable import Courier
import Foundation
import HTTPTypes
import Testing

/// The stores and the parsers under the cache.
@Suite("Cache storage and header parsing")
struct CacheStorageTests {
    static func response(_ body: String, fields: HTTPFields = [.cacheControl: "max-age=60"]) -> CachedResponse {
        CachedResponse(
            response: HTTPResponse(status: .ok, headerFields: fields),
            body: Data(body.utf8),
            varyValues: [],
            requestTime: Date(timeIntervalSince1970: 1_800_000_000),
            responseTime: Date(timeIntervalSince1970: 1_800_000_001)
        )
    }

    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)")
    }

    @Test("Cache-Control: directives in any case, quoted values, repeated lines; bad numbers ignored, huge ones capped")
    func cacheControl() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cacheControl, value: "Max-Age=\"60\", no-cache=\"Set-Cookie, X\" , private"))
        fields.append(HTTPField(name: .cacheControl, value: "stale-if-error=99999999999999999999, min-fresh=-1, max-stale"))
        let control = CacheControl(fields)
        #expect(control.maxAge == 60)
        #expect(control.noCache && control.isPrivate)
        #expect(control.staleIfError == CacheControl.largestDelta)
        #expect(control.minFresh == nil)
        #expect(control.maxStale == .max)
        #expect(CacheControl(parsing: "max-age=10, max-age=5").maxAge == 5, "the stricter of two")
        #expect(CacheControl(parsing: "max-age=1x").maxAge == nil)
        #expect(CacheControl(parsing: ",,,=,\"").maxAge == nil)
        #expect(CacheControl([HTTPField.Name("Pragma")!: "no-cache"]).noCache)
    }

    @Test("Vary: names in order once, * noted, invalid names skipped")
    func vary() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .vary, value: "Accept-Language, accept-language"))
        fields.append(HTTPField(name: .vary, value: "Accept-Encoding, *, bad name"))
        let vary = VaryFields(fields)
        #expect(vary.names == [.acceptLanguage, .acceptEncoding])
        #expect(vary.isWildcard)
    }

    @Test("a Vary value of a credential field is kept as a hash, and Accept-Encoding is the transport's")
    func varyValues() {
        let values = VaryFields.values(
            of: [.authorization, .acceptEncoding],
            in: [.authorization: "Bearer secret"],
            credentialFields: .default,
            advertisedCodings: [.gzip, .deflate]
        )
        #expect(!values[0].contains("secret"))
        #expect(values[1] == "deflate, gzip")
    }

    @Test("an entry reads back as written; any damage makes it no entry at all")
    func entryCoding() {
        let entry = Self.response(#"{"n":1}"#)
        let data = CacheEntryCoding.encode(entry, keyHash: "k")
        #expect(CacheEntryCoding.decode(data, keyHash: "k")?.body == entry.body)
        #expect(CacheEntryCoding.decode(data, keyHash: "other") == nil)
        for cut in [0, 1, 7, data.count / 2, data.count - 1] {
            #expect(CacheEntryCoding.decode(data.prefix(cut), keyHash: "k") == nil, "cut at \(cut)")
        }
        for index in stride(from: 0, to: data.count, by: 3) {
            var flipped = data
            flipped[index] ^= 0x5A
            #expect(CacheEntryCoding.decode(flipped, keyHash: "k") == nil, "byte \(index) changed")
        }
    }

    @Test("the disk store keeps its byte limit across a restart and drops damaged files when read")
    func diskStore() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = String(repeating: "x", count: 400)
        let store = try DiskCacheStore(directory: directory, limit: 1800)
        for index in 0..<5 { store.store(Self.response(body), for: CacheKey(url: "https://a.example/\(index)")) }
        await store.synchronize()
        #expect(store.size <= 1800)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 3)
        #expect(store.variants(for: CacheKey(url: "https://a.example/0")).isEmpty, "the oldest evicted")
        #expect(store.variants(for: CacheKey(url: "https://a.example/4")).count == 1)

        let reopened = try DiskCacheStore(directory: directory, limit: 1800)
        #expect(reopened.size == store.size)
        let name = try #require(files.first)
        try Data("garbage".utf8).write(to: directory.appendingPathComponent(name))
        let all = (0..<5).flatMap { reopened.variants(for: CacheKey(url: "https://a.example/\($0)")) }
        #expect(all.count == 2)
        await reopened.synchronize()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 2, "the damaged file is gone")
    }

    @Test("removing a URL removes it for every identity, in memory and on disk")
    func removeURL() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try ResponseCache(directory: directory)
        for identity in ["", "alice", "bob"] {
            cache.store(Self.response("{}"), for: CacheKey(url: "https://a.example/x", identity: identity))
        }
        cache.store(Self.response("{}"), for: CacheKey(url: "https://a.example/y"))
        cache.remove(url: "https://a.example/x")
        await cache.synchronize()
        for identity in ["", "alice", "bob"] {
            #expect(cache.variants(for: CacheKey(url: "https://a.example/x", identity: identity)).isEmpty)
        }
        #expect(cache.variants(for: CacheKey(url: "https://a.example/y")).count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }

    @Test("a 304 merges its fields but keeps those that describe the stored body")
    func merge() {
        var stored = HTTPFields()
        stored[.contentType] = "application/json"
        stored[.contentEncoding] = "gzip"
        stored[.contentLength] = "10"
        stored[.eTag] = "\"a\""
        stored.append(HTTPField(name: HTTPField.Name("X-Kept")!, value: "1"))
        var incoming = HTTPFields()
        incoming[.contentType] = "text/plain"
        incoming[.contentLength] = "0"
        incoming[.eTag] = "\"a\""
        incoming.append(HTTPField(name: HTTPField.Name("X-New")!, value: "1"))
        incoming.append(HTTPField(name: HTTPField.Name("X-New")!, value: "2"))
        incoming[.setCookie] = "a=b"
        let updated = Self.response("{}", fields: stored).updated(
            by: HTTPResponse(status: .notModified, headerFields: incoming),
            requestTime: Date(),
            responseTime: Date(),
            credentialFields: .default
        ).response.headerFields
        #expect(updated[.contentType] == "application/json")
        #expect(updated[.contentEncoding] == "gzip")
        #expect(updated[.contentLength] == "10")
        #expect(updated[values: HTTPField.Name("X-New")!] == ["1", "2"], "repeated fields kept")
        #expect(updated[HTTPField.Name("X-Kept")!] == "1")
        #expect(updated[.setCookie] == nil)
    }
}
