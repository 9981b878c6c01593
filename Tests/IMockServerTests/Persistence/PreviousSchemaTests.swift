import IMockCore
import IMockServer
import IMockTestSupport
import Testing

@testable import IMockStore

/// `--data` on a store of the previous schema version: the server migrates it, serves what it
/// holds, and writes what version 1 lacked (the start state, the clock, message ids).
@Suite("persistence: a store of the previous schema version")
struct PreviousSchemaTests {
    @Test("a version-1 store is migrated and served: its apps, users, revocations and queues")
    func servesVersion1Store() async throws {
        let data = try ExternalCommand.temporaryDirectory()
        let old = try PersistentStore(directory: data, options: StoreOptions(), schemaVersion: 1)
        // Rows as schema version 1 holds them: an open app, bob with the PBKDF2 hash of "pw"
        // (1000 iterations, salt 0xA0…0xAF), a revoked token id, two messages queued for bob.
        try old.database.execute(
            """
            INSERT INTO apps VALUES ('acme#chat', '5d0a3c1e-8f2b-4c6d-9e7a-1b2c3d4e5f60', 'YXA6client', 'YXA6secret',
                X'000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F', 5, 'open', 604800, 1, NULL, NULL,
                '{"vendor":"easemob","mode":"multiDevice","deviceLimits":{"default":4},"keepCurrentDevice":false}');
            INSERT INTO users VALUES ('acme#chat', 'bob', '0b6f2a52-3c1d-4e8f-a9b0-c1d2e3f40516', 1000,
                X'A0A1A2A3A4A5A6A7A8A9AAABACADAEAF', X'\(Self.bobHash)', NULL, 1, 1700000000000, 1700000000000, 1, 1);
            INSERT INTO revoked_tokens VALUES ('acme#chat', 3);
            INSERT INTO offline_messages VALUES ('acme#chat', 'bob', 1, '17', 'alice', 'hello', 1700000300000);
            INSERT INTO offline_messages VALUES ('acme#chat', 'bob', 2, '18', 'alice', 'again', 1700000300001);
            """)
        old.close()

        let fixture = try SessionFixture(dataDirectory: data)
        let exported = try fixture.control("GET", "/_imock/apps/acme/chat/export").body
        let app = try #require(exported["apps"]?.array?.first)
        #expect(app["uuid"] == .string("5d0a3c1e-8f2b-4c6d-9e7a-1b2c3d4e5f60"))
        #expect(app["nextTokenId"] == .number(5))
        #expect(app["revokedTokenIds"] == .array([.number(3)]))
        // Bob's stored hash verifies "pw"; his queue is delivered.
        let token = try fixture.userToken("bob", register: false)
        let bob = try await fixture.device("bob", token: token, uuid: "b1")
        #expect(await bob.next(op: "offline.start")["count"] == .number(2))
        #expect(await bob.next(op: "message")["messageId"] == .string("17"))
        await fixture.stop()

        let store = try PersistentStore.open(directory: data)
        #expect(store.openedSchemaVersion == PersistentStore.latestSchemaVersion)
        let state = try store.load()
        // Written at the first start on it: the start state (the state it had), the clock.
        #expect(state.startState?.apps.map(\.appKey.description) == ["acme#chat"])
        #expect(state.clock != nil)
        try store.checkIntegrity()
        store.close()
    }

    /// PBKDF2-HMAC-SHA256("pw", salt A0…AF, 1000 iterations, 32 bytes), hex.
    static let bobHash = Crypto.pbkdf2SHA256(password: Array("pw".utf8), salt: Array(0xA0...0xAF), iterations: 1000)
        .map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
}
