import Foundation

/// Stored responses in files of one directory, within a byte limit, the least recently used
/// evicted first; what survives a restart.
///
/// - Files are named by hashes (``CacheKey/fileStem`` and the variant's `Vary` values), never by
///   a URL, and hold no credential (``CachedResponse``).
/// - Writes and removals run in order on one background task, off the caller's path; each file
///   is written whole to a temporary name and then renamed, so a crash leaves the old entry, the
///   new one, or none.
/// - An entry that is torn or damaged all the same (its checksum or a length does not match) is
///   never served: it is dropped when read.
/// - On Apple platforms files are written with data protection
///   (`completeUntilFirstUserAuthentication`).
final class DiskCacheStore: Sendable {
    private enum Operation: Sendable {
        case write(Data, name: String)
        case remove([String])
        case barrier(CheckedContinuation<Void, Never>)
    }

    private struct State {
        var usage: LeastRecentlyUsed<String>
        /// File names by the hash of the URL they answer.
        var names: [String: Set<String>] = [:]
    }

    /// Where the files are.
    let directory: URL
    private let state: LockedState<State>
    private let operations: AsyncStream<Operation>.Continuation

    /// Opens the store in `directory`, creating it if needed; files left from before are indexed
    /// by size and modification date (the least recently modified evicted first).
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the directory cannot be created or read.
    init(directory: URL, limit: Int) throws(CourierError) {
        self.directory = directory
        var usage = LeastRecentlyUsed<String>(limit: limit)
        var names: [String: Set<String>] = [:]
        let manager = FileManager.default
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let files: [URL]
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            files = try manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)
        } catch {
            throw CourierError(.fileAccessFailed, message: "The cache directory could not be opened: \(error.localizedDescription)")
        }
        var existing: [(name: String, size: Int, date: Date)] = []
        for file in files {
            let name = file.lastPathComponent
            // A temporary file is a write a crash interrupted.
            guard name.hasSuffix(Self.fileExtension) else {
                try? manager.removeItem(at: file)
                continue
            }
            let values = try? file.resourceValues(forKeys: Set(keys))
            existing.append((name, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast))
        }
        var evicted: [String] = []
        for file in existing.sorted(by: { $0.date < $1.date }) {
            names[Self.urlHash(of: file.name), default: []].insert(file.name)
            evicted += usage.insert(file.name, size: file.size)
        }
        for name in evicted { names[Self.urlHash(of: name)]?.remove(name) }
        state = LockedState(State(usage: usage, names: names))
        let (stream, continuation) = AsyncStream<Operation>.makeStream()
        operations = continuation
        Task.detached { [directory] in
            for await operation in stream { Self.perform(operation, in: directory) }
        }
        if !evicted.isEmpty { continuation.yield(.remove(evicted)) }
    }

    deinit {
        operations.finish()
    }

    /// The responses stored for `key`, one per variant; damaged files are dropped.
    func variants(for key: CacheKey) -> [CachedResponse] {
        let stem = key.fileStem
        let candidates = state.withLock { state -> [String] in
            let names = (state.names[Self.urlHash(of: stem)] ?? []).filter { $0.hasPrefix(stem + ".") }
            for name in names { state.usage.touch(name) }
            return names.sorted()
        }
        var variants: [CachedResponse] = []
        var damaged: [String] = []
        for name in candidates {
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { continue }
            if let response = CacheEntryCoding.decode(data, keyHash: stem) {
                variants.append(response)
            } else {
                damaged.append(name)
            }
        }
        if !damaged.isEmpty { remove(names: damaged) }
        return variants
    }

    /// Stores `response` for `key` (replacing the variant with the same `Vary` values), in the
    /// background.
    func store(_ response: CachedResponse, for key: CacheKey) {
        let stem = key.fileStem
        let data = CacheEntryCoding.encode(response, keyHash: stem)
        let name = stem + "." + CacheKey.hash(response.varyValues.joined(separator: "\n")).prefix(12) + Self.fileExtension
        let evicted = state.withLock { state -> [String]? in
            guard data.count <= state.usage.limit else { return nil }
            state.names[Self.urlHash(of: name), default: []].insert(name)
            let evicted = state.usage.insert(name, size: data.count)
            for evicted in evicted { state.names[Self.urlHash(of: evicted)]?.remove(evicted) }
            return evicted
        }
        guard let evicted else { return }
        operations.yield(.write(data, name: name))
        if !evicted.isEmpty { operations.yield(.remove(evicted)) }
    }

    /// Removes every response for `url`, whoever it was stored for.
    func remove(url: String) {
        let names = state.withLock { state -> [String] in
            let names = state.names.removeValue(forKey: CacheKey.hash(url)) ?? []
            for name in names { state.usage.remove(name) }
            return Array(names)
        }
        if !names.isEmpty { operations.yield(.remove(names)) }
    }

    /// Removes the variant of `key` with `varyValues`.
    func remove(_ key: CacheKey, varyValues: [String]) {
        let name = key.fileStem + "." + CacheKey.hash(varyValues.joined(separator: "\n")).prefix(12) + Self.fileExtension
        remove(names: [name])
    }

    /// Removes everything.
    func removeAll() {
        let names = state.withLock { state -> [String] in
            let names = state.names.values.flatMap { $0 }
            state.names.removeAll()
            state.usage.removeAll()
            return names
        }
        if !names.isEmpty { operations.yield(.remove(names)) }
    }

    /// Waits until every write and removal asked for so far has reached the disk.
    func synchronize() async {
        await withCheckedContinuation { continuation in
            operations.yield(.barrier(continuation))
        }
    }

    /// The bytes stored.
    var size: Int { state.withLock { $0.usage.totalSize } }

    private func remove(names: [String]) {
        state.withLock { state in
            for name in names {
                state.usage.remove(name)
                state.names[Self.urlHash(of: name)]?.remove(name)
            }
        }
        operations.yield(.remove(names))
    }

    private static let fileExtension = ".response"

    /// The hash of the URL a file name starts with.
    private static func urlHash(of name: String) -> String {
        String(name.prefix { $0 != "." })
    }

    private static func perform(_ operation: Operation, in directory: URL) {
        switch operation {
        case .write(let data, let name):
            let target = directory.appendingPathComponent(name)
            let temporary = directory.appendingPathComponent(name + "." + UUID().uuidString + ".partial")
            do {
                // File protection applies on Apple platforms; swift-corelibs-foundation accepts the option.
                try data.write(to: temporary, options: [.completeFileProtectionUntilFirstUserAuthentication])
                // `rename` replaces the target in one step.
                if rename(temporary.path, target.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
            } catch {
                try? FileManager.default.removeItem(at: temporary)
            }
        case .remove(let names):
            for name in names { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
        case .barrier(let continuation):
            continuation.resume()
        }
    }
}
