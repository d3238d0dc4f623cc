// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Courier
import Foundation
import GRDB

/// A queue's SQLite database (WAL, `synchronous = FULL`: a transaction that returned survives a
/// crash and a power cut) and its folder of body files.
final class QueueStore: Sendable {
    private let pool: DatabasePool
    /// Where file bodies are copied to.
    let bodies: URL

    /// Opens (or creates) `<directory>/<name>.sqlite` and migrates it to the current schema.
    init(directory: URL, name: String) throws(CourierError) {
        bodies = directory.appendingPathComponent("\(name).bodies", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
            var configuration = GRDB.Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            configuration.busyMode = .timeout(10)
            pool = try DatabasePool(path: directory.appendingPathComponent("\(name).sqlite").path, configuration: configuration)
            try QueueSchema.migrator.migrate(pool)
            try removeUnreferencedBodies()
        } catch {
            throw Self.failure("could not be opened in \(directory.path)", error)
        }
    }

    /// Stores a new entry; returns it with its number.
    func insert(_ entry: StoredEntry) async throws(CourierError) -> StoredEntry {
        try await write("could not store the entry") { db in try entry.inserted(db) }
    }

    /// The entry whose turn it is: the first pending one, or with strict ordering the first one
    /// whatever its state (a failed one then blocks the rest).
    ///
    /// This and the other bookkeeping of a drain run in place, without a hop to GRDB's queues:
    /// each is one short statement, and hops would cost a drain more than the statements do.
    func head(strict: Bool) throws(CourierError) -> StoredEntry? {
        try heads(strict: strict, limit: 1).first
    }

    /// The entries whose turn comes next, in order, at most `limit`: as ``head(strict:)`` reads.
    /// - Parameters:
    ///   - strict: Whether every entry counts (strict ordering) or only pending ones.
    ///   - limit: The most entries read.
    ///   - withoutAuthentication: Whether only entries that need no credentials count (while
    ///     the queue waits for a sign-in); never with `strict`, where the head waits for it.
    func heads(strict: Bool, limit: Int, withoutAuthentication: Bool = false) throws(CourierError) -> [StoredEntry] {
        try readNow { db in
            var request = strict ? StoredEntry.all() : StoredEntry.filter(StoredEntry.Columns.state == StoredEntry.StoredState.pending.rawValue)
            if withoutAuthentication { request = request.filter(StoredEntry.Columns.requiresAuthentication == false) }
            return try request.order(StoredEntry.Columns.id).limit(limit).fetchAll(db)
        }
    }

    /// Saves a changed entry. Delivery bookkeeping need not survive a power cut (`durably: false`):
    /// losing it means one more delivery under the same `Idempotency-Key`, which the server
    /// answers with its first result; a process crash loses nothing either way.
    func update(_ entry: StoredEntry, durably: Bool = true) throws(CourierError) {
        try writeNow("could not update the entry", durably: durably) { db in try entry.update(db) }
    }

    /// Removes an entry and its body file.
    func delete(_ entry: StoredEntry) throws(CourierError) {
        _ = try writeNow("could not remove the entry", durably: false) { db in try StoredEntry.deleteOne(db, key: entry.id) }
        if let file = entry.bodyFile { try? FileManager.default.removeItem(at: bodies.appendingPathComponent(file)) }
    }

    /// Removes a delivered entry and its body file, on GRDB's writer queue: a drain sends the next
    /// entry meanwhile.
    func remove(_ entry: StoredEntry) async throws(CourierError) {
        let id = entry.id
        do {
            _ = try await pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
                try db.inTransaction {
                    _ = try StoredEntry.deleteOne(db, key: id)
                    return .commit
                }
            }
        } catch {
            throw Self.failure("could not remove the entry", error)
        }
        if let file = entry.bodyFile { try? FileManager.default.removeItem(at: bodies.appendingPathComponent(file)) }
    }

    /// The entry with this number.
    func entry(_ id: Int64) async throws(CourierError) -> StoredEntry? {
        try await read { db in try StoredEntry.fetchOne(db, key: id) }
    }

    /// Every entry, in delivery order.
    func all() async throws(CourierError) -> [StoredEntry] {
        try await read { db in try StoredEntry.order(StoredEntry.Columns.id).fetchAll(db) }
    }

    /// How many entries there are, failed ones included.
    func count() async throws(CourierError) -> Int {
        try await read { db in try StoredEntry.fetchCount(db) }
    }

    /// Makes every pending entry whose last attempt reached no server due now: the network is back.
    func makeTransportFailuresDue(now: Date) async throws(CourierError) {
        _ = try await write("could not update the entries") { db in
            try StoredEntry
                .filter(StoredEntry.Columns.state == StoredEntry.StoredState.pending.rawValue)
                .filter(StoredEntry.Columns.lastErrorKind == "transport")
                .updateAll(db, StoredEntry.Columns.nextAttemptAt.set(to: now.timeIntervalSince1970))
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(CourierError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw Self.failure("could not be read", error)
        }
    }

    private func write<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(CourierError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw Self.failure(what, error)
        }
    }

    private func readNow<T>(_ body: (Database) throws -> T) throws(CourierError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw Self.failure("could not be read", error)
        }
    }

    private func writeNow<T>(_ what: String, durably: Bool, _ body: (Database) throws -> T) throws(CourierError) -> T {
        do {
            if durably { return try pool.write(body) }
            return try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
                var value: T?
                try db.inTransaction {
                    value = try body(db)
                    return .commit
                }
                guard let value else { throw CourierError(.fileAccessFailed) }
                return value
            }
        } catch {
            throw Self.failure(what, error)
        }
    }

    /// Deletes body files no entry names: copied by an enqueue that did not get to store its entry.
    private func removeUnreferencedBodies() throws {
        let referenced = try pool.read { db in
            Set(try String.fetchAll(db, sql: "SELECT bodyFile FROM entry WHERE bodyFile IS NOT NULL"))
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: bodies.path) where !referenced.contains(file) {
            try? FileManager.default.removeItem(at: bodies.appendingPathComponent(file))
        }
    }

    static func failure(_ what: String, _ error: any Error) -> CourierError {
        if let error = error as? CourierError { return error }
        return CourierError(.fileAccessFailed, message: "The offline queue's database \(what).", underlyingError: error)
    }
}
#endif
