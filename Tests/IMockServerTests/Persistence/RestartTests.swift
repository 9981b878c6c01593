import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport
import Testing

/// A server with `--data` keeps what it acknowledged across a restart on the same directory:
/// users, password hashes, tokens and revocations, settings, offline queues, message ids,
/// checkpoints and the clock; live sessions are not restored (docs/PERSISTENCE.md).
@Suite("persistence: restart on the same data directory")
struct RestartTests {
    @Test("a restart keeps users, revocations, settings, queues, checkpoints and the clock; sessions are gone")
    func restartKeepsState() async throws {
        let data = try ExternalCommand.temporaryDirectory()
        let first = try SessionFixture(clock: .virtual, dataDirectory: data)
        let alice = try first.userToken("alice", ttl: 86_400)
        let bob = try first.userToken("bob", ttl: 86_400)
        let carol = try first.userToken("carol", ttl: 86_400)
        #expect(try first.control("POST", "/_imock/apps/acme/chat/tokens/revoke", json: #"{"user":"carol"}"#).status == 200)
        let settings = try first.control(
            "POST", "/_imock/apps/acme/chat/settings", json: #"{"restRateLimitPerSecond":1000,"defaultTokenTTLSeconds":7200}"#)
        #expect(settings.status == 200)

        // Three messages to bob while he is offline; he takes them and acks the first.
        let aliceDevice = try await first.device("alice", token: alice, uuid: "a1")
        var ids: [String] = []
        for (index, text) in ["one", "two", "three"].enumerated() {
            aliceDevice.send(#"{"op":"send","id":"s\#(index)","to":"bob","text":"\#(text)"}"#)
            ids.append(try #require(await aliceDevice.next(op: "send.ok")["messageId"]?.string))
        }
        let bobDevice = try await first.device("bob", token: bob, uuid: "b1")
        #expect(await bobDevice.next(op: "offline.start")["count"]?.int == 3)
        bobDevice.send(#"{"op":"ack","id":"k","messageId":"\#(ids[0])"}"#)
        #expect(await bobDevice.next(op: "ack.ok")["op"]?.string == "ack.ok")

        #expect(try first.control("POST", "/_imock/apps/acme/chat/checkpoints/before").status == 200)
        #expect(try first.control("POST", "/_imock/clock/advance", json: #"{"ms":3600000}"#).status == 200)
        let exported = try first.exportAll()
        let clock = try first.control("GET", "/_imock/clock").body
        await first.stop()

        // The options differ (a flowing clock): the store's clock and state win.
        let second = try SessionFixture(clock: .system, dataDirectory: data)
        #expect(try second.exportAll() == exported)
        #expect(try second.control("GET", "/_imock/clock").body == clock)
        #expect(clock["frozen"] == .bool(true))
        #expect(try second.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array == [])
        #expect(try second.control("GET", "/_imock/apps/acme/chat/checkpoints").body["checkpoints"] == .array([.string("before")]))

        // Bob's queue holds what he did not ack, with the same ids.
        let bobAgain = try await second.device("bob", token: bob, uuid: "b1")
        #expect(await bobAgain.next(op: "offline.start")["count"]?.int == 2)
        for id in ids.dropFirst() {
            #expect(await bobAgain.next(op: "message")["messageId"]?.string == id)
        }
        // Carol's token stays revoked; a new password-grant token works.
        let (_, refused) = try await second.attemptLogin("carol", token: carol, uuid: "c1")
        #expect(refused["op"]?.string == "login.error")
        let fresh = try second.userToken("carol", register: false)
        _ = try await second.device("carol", token: fresh, uuid: "c1")
        // Message ids go on after the last one given out before the restart.
        let aliceAgain = try await second.device("alice", token: alice, uuid: "a1")
        #expect(try second.http.request("POST", "/acme/chat/users", json: #"{"username":"dave","password":"pw"}"#).status == 200)
        aliceAgain.send(#"{"op":"send","id":"s10","to":"dave","text":"x"}"#)
        let next = try #require(await aliceAgain.next(op: "send.ok")["messageId"]?.string)
        #expect(UInt64(next)! > UInt64(ids.last!)!)
        await second.stop()
    }

    @Test("seed, reset and restore on a persistent server are kept; export reads the same state after a restart")
    func controlStateKept() async throws {
        let data = try ExternalCommand.temporaryDirectory()
        let first = try SessionFixture(dataDirectory: data)
        _ = try first.userToken("alice")
        try first.addOtherApp()
        _ = try first.otherUserToken("olga")
        #expect(try first.control("POST", "/_imock/apps/acme/chat/checkpoints/one").status == 200)
        _ = try first.userToken("bob")
        #expect(try first.control("POST", "/_imock/apps/acme/chat/checkpoints/one/restore").status == 200)
        let afterRestore = try first.exportAll()
        await first.stop()

        let second = try SessionFixture(dataDirectory: data)
        #expect(try second.exportAll() == afterRestore)
        let chat = try second.control("GET", "/_imock/apps/acme/chat/export").body
        #expect(chat["apps"]?.array?.first?["users"]?.array?.map { $0["username"] } == [.string("alice")])
        // The global reset removes the app added later and empties acme#chat: kept too.
        #expect(try second.control("POST", "/_imock/reset").status == 200)
        let afterReset = try second.exportAll()
        await second.stop()

        let third = try SessionFixture(dataDirectory: data)
        #expect(try third.exportAll() == afterReset)
        let apps = try third.control("GET", "/_imock/export").body["apps"]?.array ?? []
        #expect(apps.map { $0["appKey"] } == [.string("acme#chat")])
        #expect(apps.first?["users"]?.array == [])
        await third.stop()
    }

    @Test("an app removed on a persistent server stays removed after a restart, checkpoints and all")
    func removedAppStaysRemoved() async throws {
        let data = try ExternalCommand.temporaryDirectory()
        let first = try SessionFixture(dataDirectory: data)
        try first.addOtherApp()
        _ = try first.otherUserToken("olga")
        #expect(try first.control("POST", "/_imock/apps/acme/other/checkpoints/one").status == 200)
        #expect(try first.control("DELETE", "/_imock/apps/acme/other").status == 200)
        let afterRemoval = try first.exportAll()
        await first.stop()

        let second = try SessionFixture(dataDirectory: data)
        #expect(try second.exportAll() == afterRemoval)
        #expect(try second.control("GET", "/_imock/apps/acme/other/checkpoints").status == 404)
        // Added again, it has no checkpoint of the removed one.
        try second.addOtherApp()
        #expect(try second.control("GET", "/_imock/apps/acme/other/checkpoints").body["checkpoints"] == .array([]))
        await second.stop()
    }
}
