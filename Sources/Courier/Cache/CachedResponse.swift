import Foundation
import HTTPTypes

/// A response as the cache keeps it: status, header fields and body, the request field values
/// its `Vary` names, and when it was requested and received (what its age is computed from).
///
/// Credentials are never part of it: `Set-Cookie` and the client's credential fields are dropped
/// from the header fields before it is stored, and a `Vary` value of a credential field is kept as
/// a hash.
struct CachedResponse: Sendable {
    var response: HTTPResponse
    var body: Data
    /// The values of the request fields the response's `Vary` names, in its order, as
    /// ``VaryFields/values(of:in:credentialFields:advertisedCodings:)`` normalizes them.
    var varyValues: [String]
    /// When the request that brought it (or last revalidated it) was sent.
    var requestTime: Date
    /// When its header arrived.
    var responseTime: Date

    /// What it weighs in a store: its body and header fields.
    var size: Int {
        body.count + response.headerFields.reduce(64) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }

    /// Its `Cache-Control` directives.
    var control: CacheControl { CacheControl(response.headerFields) }

    /// The field names its `Vary` lists (never `*`: such a response is not stored).
    var varyNames: [HTTPField.Name] { VaryFields(response.headerFields).names }

    /// The header fields as stored: without `Set-Cookie` and any credential field.
    static func storedFields(of fields: HTTPFields, credentialFields: CredentialFields) -> HTTPFields {
        var stored = fields
        stored[.setCookie] = nil
        for name in credentialFields.headerNames { stored[name] = nil }
        return stored
    }

    /// How long it is fresh for, in seconds, from its explicit directives (`max-age`, then
    /// `Expires` against `Date`) or, where RFC 9111 §4.2.2 allows, from `Last-Modified` by `rules`.
    /// - Parameter control: Its `Cache-Control` directives (``control``), parsed once by the caller.
    func freshnessLifetime(control: CacheControl, rules: CacheRules) -> Int {
        let fields = response.headerFields
        if let maxAge = control.maxAge { return maxAge }
        let date = fields[.date].flatMap(HTTPDate.parse) ?? responseTime
        if let expires = fields[.expires] {
            // An invalid date, "0" included, means already expired (RFC 9111 §5.3).
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            return Self.seconds(expiry.timeIntervalSince(date))
        }
        guard let fraction = rules.heuristicFraction, fraction > 0,
            control.isPublic || Self.heuristicallyCacheable.contains(response.status.code),
            let lastModified = fields[.lastModified].flatMap(HTTPDate.parse)
        else { return 0 }
        let heuristic = date.timeIntervalSince(lastModified) * min(fraction, 1)
        return min(Self.seconds(heuristic), Int(rules.heuristicLimit.components.seconds))
    }

    /// Its current age in seconds at `now` (RFC 9111 §4.2.3).
    func age(at now: Date) -> Int {
        let fields = response.headerFields
        let ageValue = fields[.age].flatMap { CacheControl.deltaSeconds(Substring($0)) } ?? 0
        let dateValue = fields[.date].flatMap(HTTPDate.parse) ?? responseTime
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, Double(ageValue) + responseDelay)
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        return Self.seconds(correctedInitialAge + residentTime)
    }

    /// The fields a conditional request for it carries: `If-None-Match` with its `ETag`, and
    /// `If-Modified-Since` with its `Last-Modified`.
    var validators: [HTTPField] {
        var fields: [HTTPField] = []
        if let eTag = response.headerFields[.eTag] { fields.append(HTTPField(name: .ifNoneMatch, value: eTag)) }
        if let lastModified = response.headerFields[.lastModified] {
            fields.append(HTTPField(name: .ifModifiedSince, value: lastModified))
        }
        return fields
    }

    /// Whether a `304 Not Modified` with `fields` confirms this response (RFC 9111 §4.3.4): its
    /// strong `ETag` when it has one, else its `Last-Modified`, else it is the only candidate.
    func isConfirmed(by fields: HTTPFields) -> Bool {
        if let eTag = fields[.eTag] {
            guard let stored = response.headerFields[.eTag] else { return false }
            return Self.weakComparison(eTag, stored)
        }
        if let lastModified = fields[.lastModified], let stored = response.headerFields[.lastModified] {
            return lastModified == stored
        }
        return true
    }

    /// This response updated by a `304 Not Modified` (RFC 9111 §4.3.4): each field of the 304
    /// replaces the stored ones of its name (all of a repeated field's lines kept), except the
    /// fields that describe the stored body (`Content-Encoding`, `Content-Length`,
    /// `Content-Type`, …) and `Vary`, which selected it; its age starts again from the 304.
    func updated(by notModified: HTTPResponse, requestTime: Date, responseTime: Date, credentialFields: CredentialFields) -> CachedResponse {
        var fields = response.headerFields
        let incoming = Self.storedFields(of: notModified.headerFields, credentialFields: credentialFields)
        var replaced: Set<HTTPField.Name> = []
        for field in incoming where !Self.keptFromStored.contains(field.name) && replaced.insert(field.name).inserted {
            fields[values: field.name] = incoming[values: field.name]
        }
        var updated = self
        updated.response.headerFields = fields
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// The response to serve: its fields with `Age` set to its current age (RFC 9111 §4).
    func served(at now: Date) -> HTTPResponse {
        var served = response
        served.headerFields[.age] = String(age(at: now))
        return served
    }

    /// Fields a 304 never replaces: those about the stored body, and the `Vary` that selected it.
    static let keptFromStored: Set<HTTPField.Name> = [
        .contentEncoding, .contentLength, .contentType, .contentRange, .transferEncoding, .vary,
    ]

    /// Status codes RFC 9110 §15.1 defines as heuristically cacheable.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Weak comparison of two entity tags (RFC 9110 §8.8.3.2): the same opaque tag, `W/` aside.
    static func weakComparison(_ a: String, _ b: String) -> Bool {
        func opaque(_ tag: String) -> Substring {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : Substring(trimmed)
        }
        return opaque(a) == opaque(b)
    }

    /// `interval` as whole seconds, 0 for anything negative or not a number, bounded by
    /// ``CacheControl/largestDelta``.
    static func seconds(_ interval: TimeInterval) -> Int {
        guard interval.isFinite, interval > 0 else { return 0 }
        return Int(min(interval, Double(CacheControl.largestDelta)))
    }
}
