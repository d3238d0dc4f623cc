import Foundation
import HTTPTypes

/// One request as the cache finds its responses: its key, its `Cache-Control` directives, and its
/// field values for any `Vary`.
struct CacheLookup: Sendable {
    let request: HTTPRequest
    /// The request's `Cache-Control` directives.
    let control: CacheControl
    let origin: URL
    let key: CacheKey
    let credentialFields: CredentialFields
    let advertisedCodings: Set<ContentCoding>

    init(request: HTTPRequest, control: CacheControl, context: MiddlewareContext) {
        self.request = request
        self.control = control
        origin = context.origin
        credentialFields = context.credentialFields
        advertisedCodings = context.advertisedCodings
        let cookies = context.cookieJar.flatMap { jar in
            URL(string: CacheKey.url(of: request, at: context.origin)).flatMap { jar.fieldValue(for: $0) }
        }
        key = CacheKey(request, origin: context.origin, credentialFields: context.credentialFields, cookies: cookies)
    }

    /// The request's values of the fields `names`, as a stored response's are kept.
    func values(of names: [HTTPField.Name]) -> [String] {
        VaryFields.values(of: names, in: request.headerFields, credentialFields: credentialFields, advertisedCodings: advertisedCodings)
    }

    /// The most recent stored response whose `Vary` values match the request's.
    func stored(in cache: ResponseCache) -> CachedResponse? {
        cache.variants(for: key)
            .filter { values(of: $0.varyNames) == $0.varyValues }
            .max { $0.responseTime < $1.responseTime }
    }
}
