/// Brings a database to the schema this build writes, one ``Migration`` per transaction, and
/// refuses files it must not touch: another program's SQLite database, or a schema newer than
/// this build knows.
enum SchemaMigrator {
    /// Migrates `database` from its `user_version` up to `target` (the latest by default) and
    /// returns the version it found. A read-only database is only checked: it must already be
    /// at `target`.
    @discardableResult
    static func migrate(
        _ database: SQLiteDatabase, upTo target: Int = Schema.latestVersion
    ) throws(StoreError) -> Int {
        let found = Int(try database.scalarInt64("PRAGMA user_version") ?? 0)
        let application = Int32(truncatingIfNeeded: try database.scalarInt64("PRAGMA application_id") ?? 0)
        if found > Schema.latestVersion {
            throw .newerSchema(path: database.path, found: found, supported: Schema.latestVersion)
        }
        if application != Schema.applicationID {
            let tables = try database.scalarInt64("SELECT count(*) FROM sqlite_schema") ?? 0
            guard found == 0, application == 0, tables == 0 else {
                throw .notAStore(
                    path: database.path,
                    reason: "a SQLite database of another program (application_id \(application), user_version \(found))")
            }
        }
        guard found < target else { return found }
        guard !database.isReadOnly else {
            throw .unavailable("\(database.path) has schema version \(found) and must be opened writable to migrate it")
        }
        for migration in Schema.migrations where migration.version > found && migration.version <= target {
            try database.transaction { () throws(StoreError) in
                try database.execute(migration.sql)
                try database.execute("PRAGMA application_id = \(Schema.applicationID)")
                try database.execute("PRAGMA user_version = \(migration.version)")
            }
        }
        return found
    }
}
