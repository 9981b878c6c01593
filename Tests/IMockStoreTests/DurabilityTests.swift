import Foundation
import IMockCore
import Testing

@testable import IMockStore

/// A commit is in the files when `apply` returns; a failed batch leaves nothing behind.
@Suite struct DurabilityTests {
    @Test("after apply returns, another connection sees the data while the writer stays open")
    func otherConnectionSeesCommit() throws {
        let scratch = try ScratchDirectory()
        let writer = try PersistentStore.open(directory: scratch.path)
        let directory = try StoreFixtures.applyDirectoryChanges(to: writer)

        let reader = try PersistentStore.open(directory: scratch.path, options: StoreOptions(readOnly: true))
        #expect(try reader.load().document == SeedDocument.export(directory))
        try writer.apply([.offlineMessageQueued(app: StoreFixtures.chat, StoreFixtures.message(1))])
        #expect(try reader.load().offlineQueues.map(\.recipient) == ["bob"])
        #expect(throws: StoreError.unavailable("\(scratch.path) is open read-only")) { try reader.apply([.nextMessageSerial(2)]) }

        // A plain SQLite connection too.
        let raw = try SQLiteDatabase(path: PersistentStore.databasePath(in: scratch.path), readOnly: true)
        #expect(try raw.scalarInt64("SELECT count(*) FROM users WHERE app_key = 'acme#chat'") == 3)
    }

    @Test("the files on disk hold every commit of a store that was never closed (what SIGKILL leaves)")
    func filesHoldUnclosedCommits() throws {
        let scratch = try ScratchDirectory()
        let copy = try ScratchDirectory()
        let writer = try PersistentStore.open(directory: scratch.path)
        let directory = try StoreFixtures.applyDirectoryChanges(to: writer)
        try writer.apply([.offlineMessageQueued(app: StoreFixtures.chat, StoreFixtures.message(1))])

        // Copy the database and its WAL as they are now, with the writer still open and its
        // connection never checkpointed or closed: what the kernel would keep if the process
        // were killed here. The -shm index is left behind; SQLite rebuilds it from the WAL.
        for name in ["imock.sqlite", "imock.sqlite-wal"] {
            try FileManager.default.copyItem(atPath: scratch.file(name), toPath: copy.file(name))
        }
        let recovered = try PersistentStore.open(directory: copy.path)
        let state = try recovered.load()
        #expect(state.document == SeedDocument.export(directory))
        #expect(state.offlineQueues.first?.messages == [StoreFixtures.message(1)])
        try recovered.checkIntegrity()
        withExtendedLifetime(writer) {}
    }

    @Test("a batch that fails half-way stores none of its changes, and the store goes on working")
    func failedBatchLeavesNothing() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        try StoreFixtures.storeApp(in: store)
        let before = try store.load()

        let unknown = try AppKey(parsing: "acme#nowhere")
        let valid: [StoreChange] = [
            .userUpserted(app: StoreFixtures.chat, user: StoreFixtures.user(1)),
            .offlineMessageQueued(app: StoreFixtures.chat, StoreFixtures.message(1)),
            .tokenCounterAdvanced(app: StoreFixtures.chat, nextTokenID: 5), .nextMessageSerial(9),
        ]
        // A foreign-key violation (a user of an app the store does not hold) after valid changes.
        let error = #expect(throws: StoreError.self) {
            try store.apply(valid + [.userUpserted(app: unknown, user: StoreFixtures.user(2))])
        }
        guard case .sqlite(_, let message, let operation) = error else {
            Issue.record("expected a SQLite error, got \(String(describing: error))")
            return
        }
        #expect(message == "FOREIGN KEY constraint failed")
        #expect(operation.hasPrefix("storing change 5 of 5 (userUpserted acme#nowhere/user-2)"))
        #expect(try store.load() == before)

        // A change the store refuses before SQLite sees it, and an update of a missing app.
        var plain = StoreFixtures.user(3)
        plain.password = .plain("secret")
        #expect(throws: StoreError.invalidChange("user user-3 of app acme#chat has a plain-text password (store the hash)")) {
            try store.apply(valid + [.userUpserted(app: StoreFixtures.chat, user: plain)])
        }
        #expect(throws: StoreError.invalidChange("the store holds no app acme#nowhere to update")) {
            try store.apply(valid + [.tokenCounterAdvanced(app: unknown, nextTokenID: 2)])
        }
        #expect(try store.load() == before)

        try store.apply(valid)
        #expect(try store.load().document.apps[0].users == [StoreFixtures.user(1)])
        try store.checkIntegrity()
    }

    @Test("an incomplete app state is refused: the store keeps only what loads back identically")
    func incompleteAppRefused() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        var app = try StoreFixtures.app()
        app.signingKey = nil
        #expect(throws: StoreError.invalidChange("app acme#chat has no signingKey (store complete, exported state)")) {
            try store.apply([.appReplaced(app)])
        }
        var user = StoreFixtures.user(1)
        user.uuid = nil
        app = try StoreFixtures.app()
        app.users = [user]
        #expect(throws: StoreError.invalidChange("user user-1 of app acme#chat has no uuid (store complete, exported state)")) {
            try store.apply([.appReplaced(app)])
        }
        #expect(throws: StoreError.invalidChange("next message serial 9007199254740992 is beyond 9007199254740991")) {
            try store.apply([.nextMessageSerial(9_007_199_254_740_992)])
        }
        #expect(try store.load() == StoredState())
    }

    @Test("integrity_check passes after a mixed workload, and the connection is in WAL mode")
    func integrity() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        try StoreFixtures.storeApp(users: 1...200, in: store)
        for id in 1...300 {
            try store.apply([.offlineMessageQueued(app: StoreFixtures.chat, StoreFixtures.message(id, to: "user-\(id % 7 + 1)"))])
            if id % 3 == 0 {
                try store.apply([.offlineMessageRemoved(app: StoreFixtures.chat, recipient: "user-\((id - 1) % 7 + 1)", messageID: String(id - 1))])
            }
        }
        try store.checkIntegrity()
        #expect(try store.database.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try store.database.scalarInt64("PRAGMA foreign_keys") == 1)
        #expect(try store.database.scalarInt64("PRAGMA synchronous") == 1)  // NORMAL
        let full = try ScratchDirectory()
        let powerSafe = try PersistentStore.open(directory: full.path, options: StoreOptions(durability: .power))
        #expect(try powerSafe.database.scalarInt64("PRAGMA synchronous") == 2)  // FULL
    }

    @Test("background checkpoints copy the WAL into the database on their own thread")
    func backgroundCheckpoints() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        let checkpointer = try #require(store.checkpointer)
        try StoreFixtures.storeApp(users: 0...0, in: store)
        for start in stride(from: 1, to: 20_000, by: 100) {
            try store.apply((start..<start + 100).map { .userUpserted(app: StoreFixtures.chat, user: StoreFixtures.user($0)) })
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while checkpointer.completedCount == 0, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(checkpointer.completedCount > 0)
        #expect(store.checkpointFailure == nil)
        let databaseSize = try FileManager.default.attributesOfItem(atPath: scratch.file("imock.sqlite"))[.size] as? Int
        #expect((databaseSize ?? 0) > 1 << 20)
        try store.checkIntegrity()
        store.close()
        let reopened = try PersistentStore.open(directory: scratch.path, options: StoreOptions(checkpointing: .inline))
        #expect(reopened.checkpointer == nil)
        #expect(try reopened.load().document.apps[0].users.count == 20_001)
    }
}
