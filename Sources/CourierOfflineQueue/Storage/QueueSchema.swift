// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import GRDB

/// The database's schema, one migration per version: a database written by an older version is
/// brought up to date when it is opened, and never changed by hand.
enum QueueSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: entries") { db in
            try db.create(table: StoredEntry.databaseTableName) { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("kind", .text).notNull()
                table.column("method", .text).notNull()
                table.column("name", .text).notNull()
                table.column("pathTemplate", .text).notNull()
                table.column("path", .text).notNull()
                table.column("query", .text).notNull()
                table.column("queryNames", .jsonText).notNull()
                table.column("headerFields", .jsonText).notNull()
                table.column("body", .blob)
                table.column("bodyFile", .text)
                table.column("requiresAuthentication", .boolean).notNull()
                table.column("timeout", .double)
                table.column("baseURL", .text)
                table.column("idempotencyKey", .text).notNull().unique()
                table.column("state", .text).notNull().indexed()
                table.column("attempts", .integer).notNull()
                table.column("enqueuedAt", .double).notNull()
                table.column("nextAttemptAt", .double).notNull()
                table.column("lastStatus", .integer)
                table.column("lastResponseFields", .jsonText)
                table.column("lastResponseBody", .blob)
                table.column("lastError", .text)
                table.column("lastErrorKind", .text)
            }
        }
        return migrator
    }
}
#endif
