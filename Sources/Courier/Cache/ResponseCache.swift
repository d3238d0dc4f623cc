import Foundation

/// Where a ``CachingMiddleware`` keeps responses: in memory, and optionally on disk, each within
/// a byte limit, the least recently used evicted first.
///
/// ```swift
/// let cache = try ResponseCache(directory: cachesFolder.appendingPathComponent("api"), diskLimit: 50 << 20)
/// let movies = Client(backend: .movies, environment: .production) {
///     $0.middleware = [AuthenticationMiddleware(session), CachingMiddleware(cache)]
/// }
/// ```
///
/// A cache is private to the app: responses to requests with credentials are kept under those
/// credentials and never served to a request with other credentials or none (so nothing is served
/// after signing out). On disk, files are named by hashes, hold no credential field and no cookie,
/// and use data protection on Apple platforms; a damaged file is dropped, never served. Call
/// ``removeAll()`` to forget everything, for instance when the user signs out.
public final class ResponseCache: Sendable {
    let memory: MemoryCacheStore
    let disk: DiskCacheStore?

    /// A cache in memory only.
    /// - Parameter memoryLimit: The most bytes kept; 10 MiB by default.
    public init(memoryLimit: Int = 10 << 20) {
        memory = MemoryCacheStore(limit: memoryLimit)
        disk = nil
    }

    /// A cache on disk in `directory`, which keeps what it holds across launches, with the most
    /// recently used responses also in memory.
    ///
    /// Use a directory of its own under the app's Caches directory: the store may delete any file
    /// in it.
    /// - Parameters:
    ///   - directory: The directory of the files, created if needed.
    ///   - diskLimit: The most bytes kept on disk; 50 MiB by default.
    ///   - memoryLimit: The most bytes also kept in memory; 2 MiB by default, 0 for none.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the directory cannot be created or read.
    public init(directory: URL, diskLimit: Int = 50 << 20, memoryLimit: Int = 2 << 20) throws(CourierError) {
        memory = MemoryCacheStore(limit: memoryLimit)
        disk = try DiskCacheStore(directory: directory, limit: diskLimit)
    }

    /// Forgets every stored response, in memory and on disk.
    public func removeAll() {
        memory.removeAll()
        disk?.removeAll()
    }

    /// Waits until every response stored so far has been written to disk (writes happen in the
    /// background); returns at once for a cache in memory only.
    public func synchronize() async {
        await disk?.synchronize()
    }

    /// The bytes stored in memory and on disk.
    public var size: (memory: Int, disk: Int) {
        (memory.size, disk?.size ?? 0)
    }

    /// The responses stored for `key`, one per variant: from memory, or else from disk (and then
    /// kept in memory too).
    func variants(for key: CacheKey) -> [CachedResponse] {
        let inMemory = memory.variants(for: key)
        guard inMemory.isEmpty, let disk else { return inMemory }
        let onDisk = disk.variants(for: key)
        for response in onDisk { memory.store(response, for: key) }
        return onDisk
    }

    /// Stores `response` for `key`, replacing the variant with the same `Vary` values.
    func store(_ response: CachedResponse, for key: CacheKey) {
        memory.store(response, for: key)
        disk?.store(response, for: key)
    }

    /// Removes the variant of `key` with `varyValues`.
    func remove(_ key: CacheKey, varyValues: [String]) {
        memory.remove(key, varyValues: varyValues)
        disk?.remove(key, varyValues: varyValues)
    }

    /// Removes every response for `url`, whoever it was stored for.
    func remove(url: String) {
        memory.remove(url: url)
        disk?.remove(url: url)
    }
}
