import Foundation
import HTTPTypes
import OpenAPIRuntime

/// An HTTP cache for a client, as RFC 9111 describes a private cache: fresh responses are served
/// without asking the server, stale ones are revalidated with their validators, and changes
/// through the API invalidate what they change.
///
/// Put it after ``AuthenticationMiddleware``, so that it sees the credentials it keeps users'
/// responses apart by:
///
/// ```swift
/// let cache = ResponseCache(memoryLimit: 10 << 20)
/// let movies = Client(backend: .movies, environment: .production) {
///     $0.middleware = [AuthenticationMiddleware(session), CachingMiddleware(cache)]
/// }
/// let page = try await movies.response(for: MovieAPI.popular(page: 1))
/// print(page.source)   // network, cache, or revalidated
/// ```
///
/// - **What is stored:** responses to `GET` read into memory (not streams or downloads), except
///   206, `no-store` (on the request or the response) and `Vary: *`; only responses that can be
///   reused (fresh for a while, or with an `ETag` or `Last-Modified` to revalidate with).
/// - **The key:** the full URL, query included; the request fields the response's `Vary` names,
///   as sent (the transport's `Accept-Encoding` included), several variants per URL; and the
///   credentials the request carried (``Configuration/credentialFields`` and the cookie jar's
///   cookies), so one user's response never reaches another, nor anyone after signing out.
/// - **Freshness:** `max-age`, else `Expires` against `Date`, with `Age`; else, where the RFC
///   allows it, a fraction of the time since `Last-Modified` (``CacheRules``). Read on the client's
///   wall clock (``Configuration/currentDate``). `no-cache` and `must-revalidate` force
///   revalidation; `s-maxage` and `proxy-revalidate` are for shared caches and ignored.
/// - **Revalidation:** `If-None-Match` and `If-Modified-Since`; a 304 updates the stored header
///   fields (RFC 9111 §4.3.4) but never those describing the body (`Content-Type`,
///   `Content-Encoding`, `Content-Length`), and is served as ``ResponseSource/revalidated``. A 304
///   that does not match the stored validators is not trusted: the request is sent again without
///   them.
/// - **Invalidation:** a 2xx or 3xx to any other method than `GET` and `HEAD` removes the stored
///   responses of its URL and of its `Location` and `Content-Location` on the same origin.
/// - **Per request:** ``CachePolicy`` (``Request/cachePolicy(_:)``) or the request's own
///   `Cache-Control`: `no-store`, `no-cache`, `max-age`, `min-fresh`, `max-stale` and
///   `only-if-cached` (which fails with ``CourierError/Kind/notCached`` rather than send).
/// - **Stale responses:** served when the request allows it (`max-stale`), or after a failure or
///   a 500, 502, 503 or 504 within the response's `stale-if-error` (``CacheRules``).
///   `stale-while-revalidate` is not used: a stale response is revalidated before it is served,
///   since no work of a call outlives it.
public struct CachingMiddleware: Middleware {
    /// Where responses are kept.
    public let cache: ResponseCache
    /// The choices the RFC leaves to a cache.
    public var rules: CacheRules

    /// Creates the middleware.
    /// - Parameters:
    ///   - cache: Where responses are kept; share one between clients only for the same backend.
    ///   - rules: Heuristic freshness and stale responses; the defaults follow RFC 9111.
    public init(_ cache: ResponseCache, rules: CacheRules = CacheRules()) {
        self.cache = cache
        self.rules = rules
    }

    /// Answers a `GET` from the cache where it can, and otherwise sends it and stores the response.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body.
    ///   - context: The call's context.
    ///   - next: The rest of the chain.
    /// - Returns: The stored, revalidated or fetched response, its ``MiddlewareResponse/source``
    ///   saying which.
    /// - Throws: ``CourierError/Kind/notCached`` for `only-if-cached` with nothing usable stored;
    ///   otherwise whatever `next` throws.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        var context = context
        context.isCachedByClient = true
        guard request.method == .get, context.responseDelivery.collectsAll else {
            let result = try await next(request, body, context)
            if request.method != .get, request.method != .head, (200..<400).contains(result.status.code) {
                invalidate(after: request, result, origin: context.origin)
            }
            return result
        }
        let requestControl = CacheControl(request.headerFields)
        guard !requestControl.noStore else { return try await next(request, body, context) }
        let lookup = CacheLookup(request: request, control: requestControl, context: context)
        let now = context.currentDate()
        guard let stored = lookup.stored(in: cache) else {
            if requestControl.onlyIfCached { throw Self.notCached() }
            return try await fetch(request, body: body, context: context, lookup: lookup, next: next)
        }
        let age = stored.age(at: now)
        let responseControl = stored.control
        let lifetime = stored.freshnessLifetime(control: responseControl, rules: rules)
        if isUsable(age: age, lifetime: lifetime, request: requestControl, response: responseControl) {
            return serve(stored, at: now, source: .cache, lookup: lookup)
        }
        if requestControl.onlyIfCached { throw Self.notCached() }
        return try await revalidate(stored, request: request, body: body, context: context, lookup: lookup, next: next)
    }

    /// Whether a stored response of `age` and freshness `lifetime` may be served without asking
    /// the server (RFC 9111 §4.2, §5.2.1).
    private func isUsable(age: Int, lifetime: Int, request: CacheControl, response: CacheControl) -> Bool {
        guard !request.noCache, !response.noCache else { return false }
        if let maxAge = request.maxAge, age > maxAge { return false }
        if let minFresh = request.minFresh, lifetime - age < minFresh { return false }
        if age < lifetime { return true }
        guard let maxStale = request.maxStale, !response.mustRevalidate else { return false }
        return age - lifetime <= maxStale
    }

    /// Sends a request with nothing usable stored, and stores the response when it may be.
    private func fetch(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        lookup: CacheLookup,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        let requestTime = context.currentDate()
        var result = try await next(request, body, context)
        result.body = try await store(result, requestTime: requestTime, context: context, lookup: lookup)
        return result
    }

    /// Sends `request` with `stored`'s validators; a 304 serves `stored` updated, an error or
    /// 5xx serves it if `stale-if-error` allows, anything else replaces it.
    private func revalidate(
        _ stored: CachedResponse,
        request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        lookup: CacheLookup,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        var conditional = request
        let ownValidators = request.headerFields[.ifNoneMatch] != nil || request.headerFields[.ifModifiedSince] != nil
        if !ownValidators {
            for field in stored.validators { conditional.headerFields[field.name] = field.value }
        }
        let requestTime = context.currentDate()
        let result: MiddlewareResponse
        do {
            result = try await next(conditional, body, context)
        } catch {
            if let stale = staleOnError(stored, context: context, lookup: lookup) { return stale }
            throw error
        }
        if result.status == .notModified {
            guard stored.isConfirmed(by: result.headerFields) else {
                // Not the stored response's validator: it may belong to another variant.
                cache.remove(lookup.key, varyValues: stored.varyValues)
                if ownValidators { return result }
                return try await fetch(request, body: body, context: context, lookup: lookup, next: next)
            }
            let now = context.currentDate()
            let updated = stored.updated(
                by: result.response,
                requestTime: requestTime,
                responseTime: now,
                credentialFields: context.credentialFields
            )
            cache.store(updated, for: lookup.key)
            var served = serve(updated, at: now, source: .revalidated, lookup: lookup)
            served.attempts = result.attempts
            served.url = result.url
            served.httpVersion = result.httpVersion
            served.timings = result.timings
            return served
        }
        if [500, 502, 503, 504].contains(result.status.code), let stale = staleOnError(stored, context: context, lookup: lookup) {
            return stale
        }
        var replaced = result
        replaced.body = try await store(result, requestTime: requestTime, context: context, lookup: lookup, replacing: stored)
        return replaced
    }

    /// `stored`, when its `stale-if-error` (or the request's) allows serving it after a failure.
    private func staleOnError(_ stored: CachedResponse, context: MiddlewareContext, lookup: CacheLookup) -> MiddlewareResponse? {
        guard rules.servesStaleOnError else { return nil }
        let now = context.currentDate()
        let control = stored.control
        guard let window = lookup.control.staleIfError ?? control.staleIfError,
            stored.age(at: now) - stored.freshnessLifetime(control: control, rules: rules) <= window
        else { return nil }
        return serve(stored, at: now, source: .cache, lookup: lookup)
    }

    /// Stores `result` when RFC 9111 §3 allows it and it can be reused, and otherwise removes
    /// `replacing`; returns the body to hand on (read into memory once).
    private func store(
        _ result: MiddlewareResponse,
        requestTime: Date,
        context: MiddlewareContext,
        lookup: CacheLookup,
        replacing previous: CachedResponse? = nil
    ) async throws -> HTTPBody? {
        let status = result.status.code
        let vary = VaryFields(result.headerFields)
        let responseControl = CacheControl(result.headerFields)
        guard status >= 200, status != 206, status != 304, !responseControl.noStore, !vary.isWildcard,
            !lookup.control.noStore, result.isFrom(context.origin)
        else {
            if let previous { cache.remove(lookup.key, varyValues: previous.varyValues) }
            return result.body
        }
        let body = try await ResponseBody.data(of: result.body, upTo: context.responseDelivery.limit)
        var response = result.response
        response.headerFields = CachedResponse.storedFields(of: response.headerFields, credentialFields: context.credentialFields)
        let cached = CachedResponse(
            response: response,
            body: body,
            varyValues: lookup.values(of: vary.names),
            requestTime: requestTime,
            responseTime: context.currentDate()
        )
        if cached.freshnessLifetime(control: responseControl, rules: rules) > 0 || !cached.validators.isEmpty || responseControl.staleIfError != nil {
            if let previous, previous.varyValues != cached.varyValues {
                cache.remove(lookup.key, varyValues: previous.varyValues)
            }
            cache.store(cached, for: lookup.key)
        } else if let previous {
            cache.remove(lookup.key, varyValues: previous.varyValues)
        }
        return body.isEmpty ? nil : HTTPBody(body)
    }

    /// `stored` as this call's response.
    private func serve(_ stored: CachedResponse, at now: Date, source: ResponseSource, lookup: CacheLookup) -> MiddlewareResponse {
        MiddlewareResponse(
            response: stored.served(at: now),
            body: stored.body.isEmpty ? nil : HTTPBody(stored.body),
            url: URL(string: lookup.key.url) ?? lookup.origin,
            attempts: 0,
            source: source
        )
    }

    /// Removes what a change through `request` made stale: its URL, and its response's
    /// `Location` and `Content-Location` on the same origin (RFC 9111 §4.4).
    private func invalidate(after request: HTTPRequest, _ result: MiddlewareResponse, origin: URL) {
        let url = CacheKey.url(of: request, at: origin)
        cache.remove(url: url)
        guard let base = URL(string: url) else { return }
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = result.headerFields[name], let target = URL(string: value, relativeTo: base)?.absoluteURL,
                Redirect.sameOrigin(target, origin)
            else { continue }
            cache.remove(url: origin.absoluteString.lowercased() + target.requestTarget)
        }
    }

    private static func notCached() -> CourierError {
        CourierError(.notCached, message: "Only a stored response was allowed, and none could be used.")
    }
}
