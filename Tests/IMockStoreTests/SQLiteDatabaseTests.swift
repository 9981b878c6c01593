import Testing

@testable import IMockStore

/// The thin SQLite wrapper: typed binds and columns, the statement cache, transactions and
/// errors that carry SQLite's message.
@Suite struct SQLiteDatabaseTests {
    let database: SQLiteDatabase

    init() throws {
        database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t (n INTEGER, s TEXT, b BLOB) STRICT")
    }

    @Test("values come back exactly: extremes, empty text and blob, NUL bytes, non-ASCII, NULL")
    func valuesRoundTrip() throws {
        let rows: [(Int64?, String?, [UInt8]?)] = [
            (Int64.min, "", []), (Int64.max, "a\u{0}b", [0, 1, 255]), (0, "Zoë ✓ 𝄞", Array(repeating: 9, count: 5000)),
            (nil, nil, nil),
        ]
        for (n, s, b) in rows {
            try database.run("INSERT INTO t VALUES (?, ?, ?)", [.integer(orNull: n), .text(orNull: s), .blob(orNull: b)])
        }
        var read: [(Int64?, String?, [UInt8]?)] = []
        try database.query("SELECT n, s, b FROM t ORDER BY rowid") { row throws(StoreError) in
            read.append((try row.optionalInt64(0), try row.optionalText(1), try row.optionalBlob(2)))
        }
        #expect(read.count == rows.count)
        for (got, want) in zip(read, rows) {
            #expect(got.0 == want.0 && got.1 == want.1 && got.2 == want.2)
        }
        // Empty text and blob are values, not NULL.
        #expect(try database.scalarInt64("SELECT count(*) FROM t WHERE s IS NOT NULL AND b IS NOT NULL") == 3)
    }

    @Test("reading a column as the wrong type is an error, not a conversion")
    func typedColumns() throws {
        try database.run("INSERT INTO t VALUES (NULL, 'x', NULL)")
        #expect(throws: StoreError.corruptRecord("column n holds NULL, not an integer (SELECT n, s FROM t)")) {
            try database.query("SELECT n, s FROM t") { row throws(StoreError) in _ = try row.int64(0) }
        }
        #expect(throws: StoreError.self) {
            try database.query("SELECT n, s FROM t") { row throws(StoreError) in _ = try row.blob(1) }
        }
        try database.run("INSERT INTO t VALUES (2, NULL, NULL)")
        #expect(throws: StoreError.corruptRecord("column n holds 2, not 0 or 1 (SELECT n FROM t WHERE n = 2)")) {
            try database.query("SELECT n FROM t WHERE n = 2") { row throws(StoreError) in _ = try row.bool(0) }
        }
    }

    @Test("statements are prepared once and reused")
    func statementCache() throws {
        let first = try database.prepare("SELECT count(*) FROM t")
        let second = try database.prepare("SELECT count(*) FROM t")
        #expect(first === second)
        for n in 1...3 { try database.run("INSERT INTO t (n) VALUES (?)", [.integer(Int64(n))]) }
        #expect(try database.scalarInt64("SELECT count(*) FROM t") == 3)
    }

    @Test("a transaction whose body throws is rolled back; transactions do not nest")
    func transactions() throws {
        #expect(throws: StoreError.corruptRecord("boom")) {
            try database.transaction { () throws(StoreError) in
                try database.run("INSERT INTO t (n) VALUES (1)")
                throw .corruptRecord("boom")
            }
        }
        #expect(try database.scalarInt64("SELECT count(*) FROM t") == 0)
        #expect(!database.isInTransaction)
        #expect(throws: StoreError.unavailable(":memory: has a transaction open already (transactions do not nest)")) {
            try database.transaction { () throws(StoreError) in
                try database.transaction { () throws(StoreError) in }
            }
        }
        let committed = try database.transaction { () throws(StoreError) -> Int in
            try database.run("INSERT INTO t (n) VALUES (7)")
            return database.changes
        }
        #expect(committed == 1)
        #expect(try database.scalarInt64("SELECT n FROM t") == 7)
    }

    @Test("errors carry SQLite's code, its message and what was being done")
    func errors() throws {
        #expect(throws: StoreError.sqlite(code: 1, message: "no such table: missing", operation: "preparing SELECT * FROM missing")) {
            try database.run("SELECT * FROM missing")
        }
        #expect(throws: StoreError.sqlite(code: 25, message: "2 values for 1 parameters", operation: "binding SELECT ?")) {
            try database.run("SELECT ?", [.integer(1), .integer(2)])
        }
        try database.execute("CREATE TABLE u (k INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT")
        let error = #expect(throws: StoreError.self) { try database.run("INSERT INTO u VALUES (1, NULL)") }
        #expect(error?.description == "SQLite error 1299 (NOT NULL constraint failed: u.v) while running INSERT INTO u VALUES (1, NULL)")
        let strict = #expect(throws: StoreError.self) { try database.run("INSERT INTO t (n) VALUES ('x')") }
        #expect(strict?.description.contains("cannot store TEXT value in INTEGER column t.n") == true)
    }

    @Test("a closed database refuses every call")
    func closed() throws {
        database.close()
        #expect(throws: StoreError.unavailable(":memory: is closed")) { try database.run("SELECT 1") }
        #expect(throws: StoreError.unavailable(":memory: is closed")) { try database.execute("SELECT 1") }
    }
}
