import Foundation

/// What the caching routes saw: requests per key, how many were conditional and answered 304,
/// and each key's version, which a change through `POST`, `PUT`, `PATCH` or `DELETE` raises.
actor CacheLedger {
    private var hits: [String: Int] = [:]
    private var notModified: [String: Int] = [:]
    private var versions: [String: Int] = [:]
    private var validators: [String: [String]] = [:]
    /// When each key's current version came to be, in whole seconds.
    private var changed: [String: Date] = [:]

    /// Counts a request for `key` and returns the count including it.
    func hit(_ key: String, validator: String?) -> Int {
        hits[key, default: 0] += 1
        validators[key, default: []].append(validator ?? "")
        return hits[key, default: 0]
    }

    func countNotModified(_ key: String) { notModified[key, default: 0] += 1 }

    func version(of key: String) -> Int { versions[key, default: 1] }

    /// When the key's current version came to be: its first request, or its last change.
    func changedAt(_ key: String, now: Date) -> Date {
        if let date = changed[key] { return date }
        let date = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        changed[key] = date
        return date
    }

    func change(_ key: String) -> Int {
        versions[key, default: 1] += 1
        changed[key] = nil
        return versions[key, default: 1]
    }

    func hits(for key: String) -> Int { hits[key, default: 0] }

    func notModifiedCount(for key: String) -> Int { notModified[key, default: 0] }

    /// The `If-None-Match` or `If-Modified-Since` of each request for `key`, `""` for none.
    func validatorsSent(for key: String) -> [String] { validators[key, default: []] }
}
