import IMockCore
import Testing

@testable import IMockStore

/// The schema's history: a database of the previous version opens, migrates and keeps its
/// data; a newer or foreign one is refused.
@Suite struct MigrationTests {
    /// Rows as the first release (schema version 1) wrote them, in literal SQL, independent of
    /// today's writer.
    static let version1Rows = """
        INSERT INTO apps VALUES ('acme#chat', '5d0a3c1e-8f2b-4c6d-9e7a-1b2c3d4e5f60', 'YXA6acmeChatClient',
            'YXA6acmeChatSecret', X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F', 7,
            'authorized', 604800, 1, NULL, 100,
            '{"vendor":"easemob","mode":"multiDevice","deviceLimits":{"default":4,"desktop":2,"custom:7":1},"keepCurrentDevice":false}');
        INSERT INTO users VALUES ('acme#chat', 'alice', '0b6f2a52-3c1d-4e8f-a9b0-c1d2e3f40516', 1000,
            X'A0A1A2A3A4A5A6A7A8A9AAABACADAEAF', X'04F9C5F2CB8C93C5C2F038C43CE5DBE5B3FF6BADDD692A3059F650DCDDA977C5',
            'Alice', 1, 1700000000000, 1700000000000, 1, 1);
        INSERT INTO users VALUES ('acme#chat', 'robot-1', 'e4d3c2b1-a098-4765-8432-10fedcba9876', NULL, NULL, NULL,
            NULL, 1, 1700000200000, 1700000200000, 3, 6);
        INSERT INTO revoked_tokens VALUES ('acme#chat', 3);
        INSERT INTO offline_messages VALUES ('acme#chat', 'alice', 1, '17', 'robot-1', 'hello', 1700000300000);
        INSERT INTO offline_messages VALUES ('acme#chat', 'alice', 2, '18', 'robot-1', 'again', 1700000300001);
        """

    /// Creates a version-1 store in `directory` with ``version1Rows``.
    static func makeVersion1Store(in directory: String) throws {
        let old = try PersistentStore(directory: directory, options: StoreOptions(), schemaVersion: 1)
        try old.database.execute(version1Rows)
        old.close()
    }

    @Test("a database of schema version 1 opens, migrates to the latest version and keeps its data")
    func migratesVersion1() throws {
        let scratch = try ScratchDirectory()
        try MigrationTests.makeVersion1Store(in: scratch.path)
        let raw = try SQLiteDatabase(path: PersistentStore.databasePath(in: scratch.path))
        #expect(try raw.scalarInt64("PRAGMA user_version") == 1)
        #expect(try raw.scalarInt64("SELECT count(*) FROM sqlite_schema WHERE name = 'checkpoints'") == 0)
        raw.close()

        let store = try PersistentStore.open(directory: scratch.path)
        #expect(store.openedSchemaVersion == 1)
        #expect(try store.database.scalarInt64("PRAGMA user_version") == 2)
        let state = try store.load()
        let app = try #require(state.document.apps.first)
        #expect(app.appKey == StoreFixtures.chat)
        #expect(app.uuid == "5d0a3c1e-8f2b-4c6d-9e7a-1b2c3d4e5f60")
        #expect(app.signingKey == Array(0...31))
        #expect(app.nextTokenID == 7)
        #expect(app.revokedTokenIDs == [3])
        #expect(app.settings.restRateLimitPerSecond == 100)
        #expect(app.users.map(\.username) == ["alice", "robot-1"])
        #expect(app.users[1].password == nil)
        #expect(app.users[1].minimumTokenID == 6)
        #expect(state.offlineQueues.first?.messages.map(\.text) == ["hello", "again"])
        #expect(state.checkpoints.isEmpty && state.clock == nil && state.startState == nil)
        // The directory it describes builds, and alice's exported password still verifies.
        let directory = try state.document.makeDirectory(settings: DirectorySettings(), nowMs: StoreFixtures.now)
        #expect(directory.apps[StoreFixtures.chat]?.users["alice"]?.passwordHash?.verify("alice-password") == true)

        // The tables of version 2 work.
        try store.apply([.checkpointSaved(name: "after-migration", state: app), .nextMessageSerial(19)])
        #expect(try store.load().checkpoints.map(\.name) == ["after-migration"])
        try store.checkIntegrity()
    }

    @Test("released migrations are never edited: version 1's DDL is the one that shipped")
    func releasedDDLUnchanged() {
        // FNV-1a of the SQL text of each released step. A change to the schema is a new step.
        #expect(Schema.migrations.map(\.version) == Array(1...Schema.latestVersion))
        #expect(fnv1a(SchemaV1.migration.sql) == 0xE232_FC56_2435_097E)
    }

    @Test("a database written by a newer imock is refused and left untouched")
    func newerRefused() throws {
        let scratch = try ScratchDirectory()
        try PersistentStore.open(directory: scratch.path).close()
        let raw = try SQLiteDatabase(path: PersistentStore.databasePath(in: scratch.path))
        try raw.execute("PRAGMA user_version = 3")
        raw.close()
        #expect(throws: StoreError.newerSchema(path: PersistentStore.databasePath(in: scratch.path), found: 3, supported: 2)) {
            try PersistentStore.open(directory: scratch.path)
        }
        let after = try SQLiteDatabase(path: PersistentStore.databasePath(in: scratch.path), readOnly: true)
        #expect(try after.scalarInt64("PRAGMA user_version") == 3)
    }

    @Test("another program's SQLite database is refused rather than migrated")
    func foreignDatabaseRefused() throws {
        for setup in ["CREATE TABLE notes (text TEXT)", "PRAGMA application_id = 42"] {
            let scratch = try ScratchDirectory()
            let path = PersistentStore.databasePath(in: scratch.path)
            let raw = try SQLiteDatabase(path: path)
            try raw.execute(setup)
            raw.close()
            let error = #expect(throws: StoreError.self) { try PersistentStore.open(directory: scratch.path) }
            guard case .notAStore(let reported, let reason) = error else {
                Issue.record("expected notAStore, got \(String(describing: error))")
                continue
            }
            #expect(reported == path)
            #expect(reason.hasPrefix("a SQLite database of another program"))
        }
    }

    private func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
