import CSQLite
import IMockCommon
import IMockCore

/// One user's local database (E2, C5): a SQLite file, or an in-memory database, with the
/// messages the client received. Loop-confined.
final class MessageDatabase {
    /// The error code reported in `onDatabaseOpened` when the database cannot be opened, and of
    /// a write to a closed database: Easemob's `EMErrorDatabaseOperationFailed` = 3
    /// (`reference/easemob.md` §3.3). Only the Easemob profile renders `onDatabaseOpened`.
    static let openFailedCode = 3

    private var handle: OpaquePointer?
    /// Where it lives: a file path, or `:memory:`.
    let path: String

    /// Opens (creating if needed) the database at `path` and its `messages` table.
    init(path: String) throws(ClientError) {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &db, flags, nil)
        guard result == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw ClientError(code: Self.openFailedCode, message: "cannot open database \(path): \(message)")
        }
        handle = db
        let schema = """
            CREATE TABLE IF NOT EXISTS messages (
                message_id TEXT PRIMARY KEY, sender TEXT NOT NULL, recipient TEXT NOT NULL,
                body TEXT NOT NULL, timestamp INTEGER NOT NULL, offline INTEGER NOT NULL)
            """
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, schema, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            close()
            throw ClientError(code: Self.openFailedCode, message: "cannot create the messages table: \(message)")
        }
    }

    deinit { close() }

    /// Inserts `message` (a message already stored is kept as it is: the server may redeliver).
    func insert(_ message: ChatMessage, offline: Bool) throws(ClientError) {
        guard let handle else { throw ClientError(code: Self.openFailedCode, message: "the database is closed") }
        let sql = """
            INSERT OR IGNORE INTO messages (message_id, sender, recipient, body, timestamp, offline)
            VALUES (?, ?, ?, ?, ?, ?)
            """
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw ClientError(code: Self.openFailedCode, message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (index, text) in [message.messageId, message.from, message.to, message.text].enumerated() {
            sqlite3_bind_text(statement, Int32(index + 1), text, -1, csqlite_transient())
        }
        sqlite3_bind_int64(statement, 5, message.timestamp)
        sqlite3_bind_int(statement, 6, offline ? 1 : 0)
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw ClientError(code: Self.openFailedCode, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// The ids of the stored messages, oldest first.
    func messageIDs() -> [String] {
        guard let handle else { return [] }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT message_id FROM messages ORDER BY rowid", -1, &statement, nil)
            == SQLITE_OK, let statement
        else { return [] }
        defer { sqlite3_finalize(statement) }
        var ids: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            if let text = sqlite3_column_text(statement, 0) { ids.append(String(cString: text)) }
        }
        return ids
    }

    /// Closes the database; later inserts fail.
    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }
}

/// Where the databases of a client live.
enum DatabaseLocation {
    /// The file of `user` under `directory`, or `:memory:` without a directory. The user id is
    /// percent-encoded outside `A-Z a-z 0-9 _ -`, so no id can leave the directory.
    static func path(user: String, directory: String?) -> String {
        guard let directory else { return ":memory:" }
        return directory + "/" + fileName(user: user) + ".sqlite"
    }

    static func fileName(user: String) -> String {
        let name = PercentEncoding.encode(user) { byte in
            PercentEncoding.isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        return name.isEmpty ? "%" : name
    }
}
