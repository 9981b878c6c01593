import CSQLite

extension PersistentStore {
    /// Runs `PRAGMA integrity_check`: every page, and every index against its table (which
    /// costs several times `PRAGMA quick_check`, the check every writable open runs).
    /// - Throws: ``StoreError/integrityCheckFailed(path:problems:)`` with SQLite's findings.
    public func checkIntegrity() throws(StoreError) {
        try PersistentStore.requireIntact(database, quick: false)
    }

    /// Throws ``StoreError/integrityCheckFailed(path:problems:)`` when SQLite's integrity
    /// check (`quick`: `PRAGMA quick_check`) finds anything.
    static func requireIntact(_ database: SQLiteDatabase, quick: Bool) throws(StoreError) {
        let problems = try database.integrityProblems(quick: quick)
        guard problems.isEmpty else { throw .integrityCheckFailed(path: database.path, problems: problems) }
    }

    /// `error` in the store's words when SQLite found the file itself wanting, which it says
    /// only when a statement first reads the damage: not a database at all, or damaged.
    static func describeFileFailure(_ error: StoreError, path: String) -> StoreError {
        guard case .sqlite(let code, let message, _) = error else { return error }
        switch code & 0xFF {
        case SQLITE_NOTADB: return .notAStore(path: path, reason: message)
        case SQLITE_CORRUPT: return .integrityCheckFailed(path: path, problems: [message])
        default: return error
        }
    }
}
