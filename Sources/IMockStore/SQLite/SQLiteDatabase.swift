import CSQLite

/// One SQLite connection: statements prepared once and cached by their SQL text, typed errors
/// carrying SQLite's message, and transactions that roll back when their body throws.
///
/// **Threads.** The connection is opened in SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`):
/// it has no lock of its own, so it must only ever be used from one thread at a time — in
/// imock, the server's event-loop thread, which owns all the server's state. The class is
/// therefore not `Sendable`.
///
/// ```swift
/// let db = try SQLiteDatabase(path: "/tmp/x.sqlite")
/// try db.execute("CREATE TABLE t (n INTEGER NOT NULL) STRICT")
/// try db.transaction { () throws(StoreError) in try db.run("INSERT INTO t VALUES (?)", [.integer(1)]) }
/// try db.query("SELECT n FROM t", []) { row throws(StoreError) in print(try row.int64(0)) }
/// ```
public final class SQLiteDatabase {
    /// The file (or `:memory:`).
    public let path: String
    /// Whether it was opened read-only.
    public let isReadOnly: Bool
    private var connection: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    /// What the WAL hook calls; kept alive while the hook is installed.
    private var walHook: WALHook?

    /// Opens (read-write: creating if needed) the database at `path`. SQLite reads the file
    /// lazily: a file that is not a database is only reported by the first statement.
    public init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        self.isReadOnly = readOnly
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let result = sqlite3_open_v2(path, &handle, access | SQLITE_OPEN_NOMUTEX, nil)
        guard result == SQLITE_OK, let handle else {
            let error = handle.map { SQLiteDatabase.error($0, result, "opening \(path)") }
            sqlite3_close_v2(handle)
            throw error ?? .sqlite(code: result, message: "out of memory", operation: "opening \(path)")
        }
        sqlite3_extended_result_codes(handle, 1)
        connection = handle
    }

    deinit { close() }

    /// Finalizes every cached statement and closes the connection. Idempotent; every later
    /// call throws ``StoreError/unavailable(_:)``.
    public func close() {
        statements = [:]
        guard let connection else { return }
        sqlite3_wal_hook(connection, nil, nil)
        walHook = nil
        sqlite3_close_v2(connection)
        self.connection = nil
    }

    /// Whether ``close()`` has not been called.
    public var isOpen: Bool { connection != nil }

    // MARK: Statements

    /// Runs one or more statements without parameters (DDL, pragmas, `BEGIN`/`COMMIT`).
    public func execute(_ sql: String) throws(StoreError) {
        let connection = try open()
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(connection, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard result == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result))
            throw .sqlite(code: result, message: text, operation: "running \(sql)")
        }
    }

    /// The cached prepared statement for `sql`, prepared on first use.
    public func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let statement = try SQLiteStatement(connection: try open(), sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows (or whose rows are not needed) with `values`
    /// bound to its parameters.
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(StoreError) {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a query with `values` bound, calling `row` with the statement positioned on each
    /// row in turn. The statement is reset afterwards, whatever happens.
    public func query(
        _ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteStatement) throws(StoreError) -> Void
    ) throws(StoreError) {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() { try row(statement) }
    }

    /// The first column of the first row as text (nil when there is no row or it is NULL):
    /// for pragmas and single values.
    public func scalarText(_ sql: String, _ values: [SQLiteValue] = []) throws(StoreError) -> String? {
        var value: String?
        try query(sql, values) { row throws(StoreError) in
            if value == nil, !row.isNull(0) { value = String(cString: sqlite3_column_text(row.handle, 0)) }
        }
        return value
    }

    /// The first column of the first row as an integer (nil when there is no row or it is NULL).
    public func scalarInt64(_ sql: String, _ values: [SQLiteValue] = []) throws(StoreError) -> Int64? {
        var value: Int64?
        try query(sql, values) { row throws(StoreError) in
            if value == nil { value = try row.optionalInt64(0) }
        }
        return value
    }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { connection.map { Int(sqlite3_changes64($0)) } ?? 0 }

    // MARK: Transactions

    /// How a transaction takes its locks.
    public enum TransactionKind: String, Sendable {
        /// Takes the write lock at once (`BEGIN IMMEDIATE`): a writer never fails half-way
        /// for want of the lock.
        case immediate = "BEGIN IMMEDIATE"
        /// Reads one consistent snapshot; writes would take the lock later (`BEGIN DEFERRED`).
        case deferred = "BEGIN DEFERRED"
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it (or the
    /// commit) throws, so nothing of a failed body stays. Transactions do not nest.
    public func transaction<T>(
        _ kind: TransactionKind = .immediate, _ body: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let connection = try open()
        guard sqlite3_get_autocommit(connection) != 0 else {
            throw .unavailable("\(path) has a transaction open already (transactions do not nest)")
        }
        try execute(kind.rawValue)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT may already have rolled back (SQLITE_FULL, SQLITE_IOERR); only
            // roll back what is still open.
            if sqlite3_get_autocommit(connection) == 0 { sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { connection.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    /// `PRAGMA integrity_check`, or with `quick` `PRAGMA quick_check` (every page, but not
    /// whether each index matches its table): empty when the database is sound, else SQLite's
    /// findings, one a line. A page so damaged that the check stops (`SQLITE_CORRUPT`) is one
    /// more finding.
    public func integrityProblems(quick: Bool = false) throws(StoreError) -> [String] {
        var lines: [String] = []
        do throws(StoreError) {
            try query(quick ? "PRAGMA quick_check" : "PRAGMA integrity_check") { row throws(StoreError) in
                // A row can hold several findings, one a line, under a header naming the
                // schema ("*** in database main ***"): there is only one.
                lines += try row.text(0).split(whereSeparator: \.isNewline).map(String.init)
                    .filter { !$0.hasPrefix("*** in database ") }
            }
        } catch .sqlite(let code, let message, _) where code & 0xFF == SQLITE_CORRUPT {
            lines.append(message)
        }
        return lines == ["ok"] ? [] : lines
    }

    // MARK: WAL

    /// Calls `action` after each commit that leaves at least `pages` pages in the WAL
    /// (`sqlite3_wal_hook`), on the committing thread; replaces SQLite's own automatic
    /// checkpoint, which would run there. `action` must be quick: it runs inside the commit.
    public func onWALCommit(atLeast pages: Int, _ action: @escaping () -> Void) throws(StoreError) {
        let connection = try open()
        let hook = WALHook(pages: Int32(clamping: pages), action: action)
        walHook = hook
        sqlite3_wal_hook(connection, walHookTrampoline, Unmanaged.passUnretained(hook).toOpaque())
    }

    // MARK: Errors

    private func open() throws(StoreError) -> OpaquePointer {
        guard let connection else { throw .unavailable("\(path) is closed") }
        return connection
    }

    /// The error for `result` on `connection`, with SQLite's message for it.
    static func error(_ connection: OpaquePointer, _ result: Int32, _ operation: String) -> StoreError {
        let current = sqlite3_extended_errcode(connection)
        let message = current == result || sqlite3_errcode(connection) == result
            ? String(cString: sqlite3_errmsg(connection)) : String(cString: sqlite3_errstr(result))
        return .sqlite(code: result, message: message, operation: operation)
    }
}

/// The Swift side of a WAL hook.
private final class WALHook {
    let pages: Int32
    let action: () -> Void

    init(pages: Int32, action: @escaping () -> Void) {
        self.pages = pages
        self.action = action
    }
}

private func walHookTrampoline(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ pages: Int32
) -> Int32 {
    guard let context else { return SQLITE_OK }
    let hook = Unmanaged<WALHook>.fromOpaque(context).takeUnretainedValue()
    if pages >= hook.pages { hook.action() }
    return SQLITE_OK
}
