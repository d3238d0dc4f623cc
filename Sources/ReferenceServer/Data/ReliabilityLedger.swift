import Foundation

/// What the reliability routes remember: hits per flaky key, the rate limiter's window, and the
/// journals.
actor ReliabilityLedger {
    private var hits: [String: Int] = [:]
    private var journals: [String: [Int]] = [:]
    private var tokens: Double?
    private var updatedAt = Date()
    private(set) var rateLimitRejections = 0

    /// Counts a hit on `key` and returns the count including it.
    func hit(_ key: String) -> Int {
        hits[key, default: 0] += 1
        return hits[key, default: 0]
    }

    func hits(for key: String) -> Int {
        hits[key, default: 0]
    }

    /// Appends a value to a journal; returns its position, from 1.
    func append(_ value: Int, toJournal name: String) -> Int {
        journals[name, default: []].append(value)
        return journals[name, default: []].count
    }

    func journal(_ name: String) -> [Int] {
        journals[name, default: []]
    }

    /// A token bucket shared by all clients: `burst` requests at once, refilled at `perSecond`.
    /// - Returns: Whether admitted, whole requests remaining, and seconds until one more is allowed.
    func admit(perSecond: Int, burst: Int, now: Date = Date()) -> (admitted: Bool, remaining: Int, reset: Int) {
        let rate = Double(max(1, perSecond))
        let capacity = Double(max(1, burst))
        tokens = min(capacity, (tokens ?? capacity) + now.timeIntervalSince(updatedAt) * rate)
        updatedAt = now
        guard tokens ?? 0 >= 1 else {
            rateLimitRejections += 1
            return (false, 0, max(1, Int(((1 - (tokens ?? 0)) / rate).rounded(.up))))
        }
        tokens = (tokens ?? 0) - 1
        let remaining = Int(tokens ?? 0)
        return (true, remaining, remaining > 0 ? 0 : max(1, Int(((1 - (tokens ?? 0)) / rate).rounded(.up))))
    }
}
