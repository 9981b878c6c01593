import CSQLite

/// A prepared SQLite statement with typed binds and typed column reads.
///
/// Made and cached by ``SQLiteDatabase/prepare(_:)``; confined to the database's thread like
/// the database itself. ``SQLiteDatabase/run(_:_:)`` and ``SQLiteDatabase/query(_:_:row:)``
/// bind, step and reset it, so callers rarely touch it except to read columns of a row.
/// Column reads check the storage class and throw ``StoreError/corruptRecord(_:)`` on a
/// mismatch (a NULL where a value belongs) instead of converting silently.
public final class SQLiteStatement {
    /// The SQL text it was prepared from (the statement cache's key).
    public let sql: String
    let handle: OpaquePointer
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws(StoreError) {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteDatabase.error(connection, result, "preparing \(sql)")
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding and stepping

    /// Binds `values` to parameters 1, 2, … (clearing any earlier bindings first).
    public func bind(_ values: [SQLiteValue]) throws(StoreError) {
        sqlite3_clear_bindings(handle)
        guard values.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw .sqlite(
                code: SQLITE_RANGE, message: "\(values.count) values for \(sqlite3_bind_parameter_count(handle)) parameters",
                operation: "binding \(sql)")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .integer(let number): result = sqlite3_bind_int64(handle, index, number)
            case .null: result = sqlite3_bind_null(handle, index)
            case .text(var text):
                result = text.withUTF8 { bytes in
                    // A NULL pointer would bind NULL, not the empty string.
                    guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text(handle, index, $0, Int32(bytes.count), csqlite_transient())
                    }
                }
            case .blob(let bytes):
                result = bytes.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return sqlite3_bind_zeroblob(handle, index, 0) }
                    return sqlite3_bind_blob(handle, index, base, Int32(raw.count), csqlite_transient())
                }
            }
            guard result == SQLITE_OK else { throw SQLiteDatabase.error(connection, result, "binding \(sql)") }
        }
    }

    /// Runs the statement one step: true when a row is ready to read, false when it is done.
    public func step() throws(StoreError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result: throw SQLiteDatabase.error(connection, result, "running \(sql)")
        }
    }

    /// Makes the statement ready to run again and releases what it holds (a read transaction
    /// of an unfinished query, bound copies of text and blobs).
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns of the current row

    /// Whether column `index` (from 0) of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` as an integer; NULL or another storage class throws.
    public func int64(_ index: Int32) throws(StoreError) -> Int64 {
        try expect(index, SQLITE_INTEGER, "an integer")
        return sqlite3_column_int64(handle, index)
    }

    /// Column `index` as an integer, nil for NULL.
    public func optionalInt64(_ index: Int32) throws(StoreError) -> Int64? {
        isNull(index) ? nil : try int64(index)
    }

    /// Column `index` as a boolean stored as 0 or 1.
    public func bool(_ index: Int32) throws(StoreError) -> Bool {
        switch try int64(index) {
        case 0: return false
        case 1: return true
        case let other: throw .corruptRecord("column \(columnName(index)) holds \(other), not 0 or 1 (\(sql))")
        }
    }

    /// Column `index` as text; NULL or another storage class throws.
    public func text(_ index: Int32) throws(StoreError) -> String {
        try expect(index, SQLITE_TEXT, "text")
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let base = sqlite3_column_text(handle, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Column `index` as text, nil for NULL.
    public func optionalText(_ index: Int32) throws(StoreError) -> String? {
        isNull(index) ? nil : try text(index)
    }

    /// Column `index` as bytes; NULL or another storage class throws.
    public func blob(_ index: Int32) throws(StoreError) -> [UInt8] {
        try expect(index, SQLITE_BLOB, "a blob")
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let base = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Column `index` as bytes, nil for NULL.
    public func optionalBlob(_ index: Int32) throws(StoreError) -> [UInt8]? {
        isNull(index) ? nil : try blob(index)
    }

    private func expect(_ index: Int32, _ type: Int32, _ name: String) throws(StoreError) {
        let found = sqlite3_column_type(handle, index)
        guard found != type else { return }
        let foundName = found == SQLITE_NULL ? "NULL" : "storage class \(found)"
        throw .corruptRecord("column \(columnName(index)) holds \(foundName), not \(name) (\(sql))")
    }

    private func columnName(_ index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "#\(index)"
    }
}
