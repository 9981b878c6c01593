import IMockCommon
import IMockCore
import Testing

@testable import IMockStore

/// What is applied comes back from `load()` exactly: the directory as `SeedDocument.export`
/// sees it, and everything beyond the directory.
@Suite struct StoreRoundTripTests {
    @Test("changes emitted step by step load back as the export of the directory they came from")
    func directoryRoundTrip() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        let directory = try StoreFixtures.applyDirectoryChanges(to: store)
        let expected = SeedDocument.export(directory)

        let loaded = try store.load().document
        #expect(loaded == expected)
        #expect(loaded.encoded() == expected.encoded())
        // What loads also builds the directory again, and it exports the same bytes.
        let rebuilt = try loaded.makeDirectory(settings: directory.settings, nowMs: StoreFixtures.now + 99)
        #expect(SeedDocument.export(rebuilt).encoded() == expected.encoded())
        store.close()

        // And so does a store opened afresh on the same file.
        let reopened = try PersistentStore.open(directory: scratch.path)
        #expect(try reopened.load().document.encoded() == expected.encoded())
        #expect(reopened.openedSchemaVersion == PersistentStore.latestSchemaVersion)
    }

    @Test("replacing an app replaces its users and revoked ids, and leaves the other apps alone")
    func appReplaced() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        let directory = try StoreFixtures.applyDirectoryChanges(to: store)
        var replacement = try StoreFixtures.app(users: 1...2)
        replacement.revokedTokenIDs = [9]
        replacement.nextTokenID = 12
        try store.apply([.appReplaced(replacement)])

        let apps = try store.load().document.apps
        #expect(apps.map(\.appKey) == [StoreFixtures.chat, StoreFixtures.open])
        #expect(apps[0] == replacement)
        #expect(apps[1] == SeedApp.export(directory.apps[StoreFixtures.open]!))
    }

    @Test("removing an app removes its users, tokens, queues and active users but keeps its checkpoints")
    func appRemoved() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        let app = try StoreFixtures.app()
        try store.apply([
            .appReplaced(app), .userUpserted(app: StoreFixtures.chat, user: StoreFixtures.user(1)),
            .tokenRevoked(app: StoreFixtures.chat, tokenID: 3),
            .offlineMessageQueued(app: StoreFixtures.chat, StoreFixtures.message(1, to: "user-1")),
            .activeUserAdded(app: StoreFixtures.chat, username: "user-1"),
            .checkpointSaved(name: "before", state: app),
        ])
        try store.apply([.appRemoved(StoreFixtures.chat)])

        let state = try store.load()
        #expect(state.document.apps.isEmpty)
        #expect(state.offlineQueues.isEmpty)
        #expect(state.activeUsers.isEmpty)
        #expect(state.checkpoints == [StoredCheckpoint(name: "before", state: app)])
        for table in ["users", "revoked_tokens", "offline_messages", "active_users"] {
            #expect(try store.database.scalarInt64("SELECT count(*) FROM \(table)") == 0)
        }
    }

    @Test("checkpoints, start state, clock, message serial and active users load back")
    func controlState() throws {
        let scratch = try ScratchDirectory()
        let store = try PersistentStore.open(directory: scratch.path)
        let directory = try StoreFixtures.applyDirectoryChanges(to: store)
        let chatState = SeedApp.export(directory.apps[StoreFixtures.chat]!)
        let openState = SeedApp.export(directory.apps[StoreFixtures.open]!)
        let start = SeedDocument.export(directory)
        let clock = Timeline(mode: .system, wallClock: { StoreFixtures.now })
        try clock.advance(by: 3_600_000)
        clock.freeze()

        #expect(try store.load().clock == nil)
        #expect(try store.load().startState == nil)
        try store.apply([
            .checkpointSaved(name: "b", state: openState), .checkpointSaved(name: "a", state: chatState),
            .checkpointSaved(name: "z", state: chatState), .checkpointRemoved(app: StoreFixtures.chat, name: "z"),
            .startStateSaved(start), .clockChanged(clock.position), .nextMessageSerial(42),
            .activeUserAdded(app: StoreFixtures.chat, username: "bob"),
            .activeUserAdded(app: StoreFixtures.chat, username: "alice"),
            .activeUserAdded(app: StoreFixtures.chat, username: "alice"),
            .activeUserAdded(app: StoreFixtures.open, username: "zoe"),
            .activeUsersReset(app: StoreFixtures.open),
        ])
        // Taking a checkpoint under an existing name replaces it.
        try store.apply([.checkpointSaved(name: "a", state: try StoredCheckpointFixture.renamedClient(chatState))])

        let state = try store.load()
        #expect(state.checkpoints.map { "\($0.state.appKey)/\($0.name)" } == ["acme#chat/a", "acme#open/b"])
        #expect(state.checkpoints[0].state == (try StoredCheckpointFixture.renamedClient(chatState)))
        #expect(state.checkpoints[1].state == openState)
        #expect(state.startState == start)
        #expect(state.clock == StoredClock(offsetMs: 3_600_000, frozenAtMs: StoreFixtures.now + 3_600_000))
        #expect(state.nextMessageSerial == 42)
        #expect(state.activeUsers == [StoreFixtures.chat: ["alice", "bob"]])

        try store.apply([.clockChanged(StoredClock(offsetMs: -5, frozenAtMs: nil))])
        #expect(try store.load().clock == StoredClock(offsetMs: -5, frozenAtMs: nil))
    }
}

enum StoredCheckpointFixture {
    /// `state` with another client secret: a different state of the same app.
    static func renamedClient(_ state: SeedApp) throws -> SeedApp {
        var changed = state
        changed.clientSecret = "YXA6another-secret"
        return changed
    }
}
