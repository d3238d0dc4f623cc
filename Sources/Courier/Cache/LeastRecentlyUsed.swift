/// Sizes of a store's entries in order of use, for evicting the least recently used past a limit
/// of total bytes.
///
/// Uses are kept in a queue of stamps and stale stamps skipped, so a use and an eviction cost
/// amortized constant time.
struct LeastRecentlyUsed<Key: Hashable & Sendable>: Sendable {
    private var entries: [Key: (size: Int, stamp: UInt64)] = [:]
    private var order: [(key: Key, stamp: UInt64)] = []
    private var head = 0
    private var nextStamp: UInt64 = 0
    /// The sum of all entries' sizes.
    private(set) var totalSize = 0
    /// The most bytes kept.
    let limit: Int

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    var count: Int { entries.count }

    func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Marks `key` as just used.
    mutating func touch(_ key: Key) {
        guard let entry = entries[key] else { return }
        entries[key] = (entry.size, stamp(key))
    }

    /// Adds or resizes `key`, as just used.
    /// - Returns: The keys evicted to stay within the limit, never `key` itself unless it alone is
    ///   larger than the limit.
    mutating func insert(_ key: Key, size: Int) -> [Key] {
        if let old = entries[key] { totalSize -= old.size }
        entries[key] = (size, stamp(key))
        totalSize += size
        var evicted: [Key] = []
        while totalSize > limit, let oldest = popOldest() {
            evicted.append(oldest)
        }
        return evicted
    }

    /// Forgets `key`.
    mutating func remove(_ key: Key) {
        if let old = entries.removeValue(forKey: key) { totalSize -= old.size }
    }

    /// Forgets everything.
    mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        head = 0
        totalSize = 0
    }

    private mutating func stamp(_ key: Key) -> UInt64 {
        nextStamp += 1
        order.append((key, nextStamp))
        // Stale stamps are dropped once they outnumber the live ones.
        if order.count - head > 2 * entries.count + 64 { compact() }
        return nextStamp
    }

    private mutating func popOldest() -> Key? {
        while head < order.count {
            let candidate = order[head]
            head += 1
            if let entry = entries[candidate.key], entry.stamp == candidate.stamp {
                entries[candidate.key] = nil
                totalSize -= entry.size
                return candidate.key
            }
        }
        return nil
    }

    private mutating func compact() {
        order = order[head...].filter { entries[$0.key]?.stamp == $0.stamp }
        head = 0
    }
}
