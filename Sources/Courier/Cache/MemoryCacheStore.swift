/// Stored responses in memory, within a byte limit, the least recently used evicted first.
final class MemoryCacheStore: Sendable {
    /// One stored response, as the index knows it.
    struct Slot: Hashable, Sendable {
        var key: CacheKey
        var varyValues: [String]
    }

    private struct State {
        var responses: [CacheKey: [CachedResponse]] = [:]
        var identities: [String: Set<String>] = [:]
        var usage: LeastRecentlyUsed<Slot>
    }

    private let state: LockedState<State>

    init(limit: Int) {
        state = LockedState(State(usage: LeastRecentlyUsed(limit: limit)))
    }

    /// The responses stored for `key`, one per variant, each marked as used.
    func variants(for key: CacheKey) -> [CachedResponse] {
        state.withLock { state in
            let variants = state.responses[key] ?? []
            for variant in variants { state.usage.touch(Slot(key: key, varyValues: variant.varyValues)) }
            return variants
        }
    }

    /// Stores `response` for `key`, replacing the variant with the same `Vary` values.
    func store(_ response: CachedResponse, for key: CacheKey) {
        state.withLock { state in
            guard response.size <= state.usage.limit else { return }
            var variants = state.responses[key] ?? []
            variants.removeAll { $0.varyValues == response.varyValues }
            variants.append(response)
            state.responses[key] = variants
            state.identities[key.url, default: []].insert(key.identity)
            for evicted in state.usage.insert(Slot(key: key, varyValues: response.varyValues), size: response.size) {
                Self.forget(evicted, in: &state)
            }
        }
    }

    /// Removes the variant of `key` with `varyValues`.
    func remove(_ key: CacheKey, varyValues: [String]) {
        state.withLock { state in
            let slot = Slot(key: key, varyValues: varyValues)
            state.usage.remove(slot)
            Self.forget(slot, in: &state)
        }
    }

    /// Removes every response for `url`, whoever it was stored for.
    func remove(url: String) {
        state.withLock { state in
            for identity in state.identities.removeValue(forKey: url) ?? [] {
                let key = CacheKey(url: url, identity: identity)
                for variant in state.responses.removeValue(forKey: key) ?? [] {
                    state.usage.remove(Slot(key: key, varyValues: variant.varyValues))
                }
            }
        }
    }

    /// Removes everything.
    func removeAll() {
        state.withLock { state in
            state.responses.removeAll()
            state.identities.removeAll()
            state.usage.removeAll()
        }
    }

    /// The bytes stored.
    var size: Int { state.withLock { $0.usage.totalSize } }

    private static func forget(_ slot: Slot, in state: inout State) {
        guard var variants = state.responses[slot.key] else { return }
        variants.removeAll { $0.varyValues == slot.varyValues }
        if variants.isEmpty {
            state.responses[slot.key] = nil
            state.identities[slot.key.url]?.remove(slot.key.identity)
            if state.identities[slot.key.url]?.isEmpty == true { state.identities[slot.key.url] = nil }
        } else {
            state.responses[slot.key] = variants
        }
    }
}
