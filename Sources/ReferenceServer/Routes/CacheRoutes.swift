import Foundation
import HTTPTypes
import Hummingbird

/// A resource per key that sends the caching header fields a test asks for, answers conditional
/// requests with 304, counts what reaches it, and changes when written to.
///
/// `GET /cache/{key}` answers `{"key", "version", "hit", "language", "user"}` with the fields the
/// query names:
/// - `max_age=N`, `no_store=1`, `no_cache=1`, `must_revalidate=1`, `private=1`,
///   `stale_if_error=N`: the `Cache-Control` directives;
/// - `expires=N`: `Expires` N seconds after `Date` (`expires=invalid` for an unreadable date);
/// - `etag=1`: a strong `ETag` of the key's version, and 304 to a matching `If-None-Match`;
/// - `last_modified=N`: `Last-Modified` N seconds before the key's version came to be (its first
///   request, or its last change), and 304 to an `If-Modified-Since` at or after it;
/// - `vary=NAME`: `Vary: NAME` (the response's `language` is the request's `Accept-Language`);
/// - `age=N`: an `Age` field;
/// - `delay_ms=N`: an answer after N ms (for requests in flight together).
///
/// The `user` is the request's bearer token, so that tests see whose response they got. A 304
/// carries a new `X-Revalidated` count, `Cache-Control` and `Date`, and a `Content-Type` of
/// `text/plain` that a cache must not take over. `POST`, `PUT`, `PATCH` and `DELETE` on
/// `/cache/{key}` raise its version and answer 204, with `Content-Location: /cache/{key}`;
/// `POST /cache/{key}/items` answers 201 with `Location: /cache/{key}?max_age=60`.
enum CacheRoutes {
    static func register(on router: Router<ReferenceRequestContext>, ledger: CacheLedger) {
        router.get("cache/:key") { request, context -> Response in
            let key = context.parameters.get("key") ?? ""
            let ifNoneMatch = request.headers[.ifNoneMatch]
            let ifModifiedSince = request.headers[.ifModifiedSince]
            let hit = await ledger.hit(key, validator: ifNoneMatch ?? ifModifiedSince)
            if let delay = request.queryInt("delay_ms") { try? await Task.sleep(for: .milliseconds(min(delay, 10_000))) }
            let version = await ledger.version(of: key)
            let query = request.uri.queryParameters
            let now = Date()
            var fields = HTTPFields()
            fields[.date] = httpDate(now)
            var directives: [String] = []
            if let maxAge = query["max_age"] { directives.append("max-age=\(maxAge)") }
            if query["no_store"] != nil { directives.append("no-store") }
            if query["no_cache"] != nil { directives.append("no-cache") }
            if query["must_revalidate"] != nil { directives.append("must-revalidate") }
            if query["private"] != nil { directives.append("private") }
            if let window = query["stale_if_error"] { directives.append("stale-if-error=\(window)") }
            if !directives.isEmpty { fields[.cacheControl] = directives.joined(separator: ", ") }
            if let expires = query["expires"] {
                fields[.expires] = Int(expires).map { httpDate(now.addingTimeInterval(Double($0))) } ?? String(expires)
            }
            let eTag = "\"\(key)-v\(version)\""
            if query["etag"] != nil { fields[.eTag] = eTag }
            var lastModified: Date?
            if let seconds = request.queryInt("last_modified") {
                // Fixed per version: N seconds before the version came to be.
                let modified = await ledger.changedAt(key, now: now).addingTimeInterval(-Double(seconds))
                lastModified = modified
                fields[.lastModified] = httpDate(modified)
            }
            if let vary = query["vary"] { fields[.vary] = String(vary) }
            if let age = query["age"] { fields[.age] = String(age) }
            let matchesETag = query["etag"] != nil && ifNoneMatch.map { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == eTag } } == true
            var notModifiedSince = false
            if ifNoneMatch == nil, let lastModified, let since = ifModifiedSince.flatMap(parseHTTPDate) {
                notModifiedSince = since >= lastModified
            }
            if matchesETag || notModifiedSince {
                await ledger.countNotModified(key)
                fields[HTTPField.Name("X-Revalidated")!] = String(await ledger.notModifiedCount(for: key))
                fields[.contentType] = "text/plain"
                return Response(status: .notModified, headers: fields)
            }
            let language = request.headers[.acceptLanguage] ?? ""
            let authorization = request.headers[.authorization] ?? ""
            let user = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst(7)) : ""
            var response = JSONResponse.make(CachedResource(key: key, version: version, hit: hit, language: language, user: user))
            for field in fields { response.headers.append(field) }
            return response
        }
        for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
            router.on("cache/:key", method: method) { _, context -> Response in
                let key = context.parameters.get("key") ?? ""
                _ = await ledger.change(key)
                return Response(status: .noContent, headers: [.contentLocation: "/cache/\(key)"])
            }
        }
        router.post("cache/:key/items") { _, context -> Response in
            let key = context.parameters.get("key") ?? ""
            _ = await ledger.change(key)
            return Response(status: .created, headers: [.location: "/cache/\(key)?max_age=60"])
        }
    }

    private struct CachedResource: Encodable {
        var key: String
        var version: Int
        var hit: Int
        var language: String
        var user: String
    }

    /// `date` as an IMF-fixdate (RFC 9110 §5.6.7).
    static func httpDate(_ date: Date) -> String {
        formatter().string(from: date)
    }

    private static func parseHTTPDate(_ text: String) -> Date? {
        formatter().date(from: text)
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
