import IMockCommon
import Testing
import IMockServer
import IMockTestSupport

@Suite("Control API: seed, reset, checkpoints, export")
struct StateControlTests {
    @Test("reset brings an app back to its start state byte for byte and kicks its devices with 207")
    func resetToStart() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let start = try fixture.export()
        let token = try fixture.userToken("alice")
        let phone = try await fixture.device("alice", token: token, uuid: "a1")
        _ = try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"defaultTokenTTLSeconds":60}"#)
        #expect(try fixture.export() != start)

        let reset = try fixture.control("POST", "/_imock/apps/acme/chat/reset")
        #expect(reset.status == 200, "\(reset)")
        #expect(reset.body["reset"]?.string == "acme#chat")
        let kicked = await phone.next()
        #expect(kicked["op"]?.string == "kicked")
        #expect(kicked["code"]?.int == 207)
        #expect((await phone.next())["code"]?.int == 4207)
        #expect(try fixture.export() == start)
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array?.isEmpty == true)
        // alice is gone: her token no longer logs in.
        #expect((try await fixture.attemptLogin("alice", token: token, uuid: "a2")).reply["op"]?.string == "login.error")
        await fixture.stop()
    }

    @Test("a checkpoint restores the app's state exactly; offline messages of the app are dropped")
    func checkpointRoundTrip() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let aliceToken = try fixture.userToken("alice")
        let bobToken = try fixture.userToken("bob")
        let taken = try fixture.control("POST", "/_imock/apps/acme/chat/checkpoints/before-bob")
        #expect(taken.status == 200, "\(taken)")
        #expect(taken.body["users"]?.int == 2)
        let saved = try fixture.export()

        // Change everything a checkpoint covers: users, tokens, settings; queue a message for bob.
        let carol = try fixture.userToken("carol")
        _ = try fixture.control("POST", "/_imock/apps/acme/chat/tokens/revoke", json: #"{"user":"alice"}"#)
        _ = try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"registrationMode":"authorized"}"#)
        let sender = try await fixture.device("carol", token: carol, uuid: "c1")
        sender.send(#"{"op":"send","id":"m1","to":"bob","text":"hello"}"#)
        #expect((await sender.next())["op"]?.string == "send.ok")
        #expect(try fixture.export() != saved)

        let restored = try fixture.control("POST", "/_imock/apps/acme/chat/checkpoints/before-bob/restore")
        #expect(restored.status == 200, "\(restored)")
        #expect(try fixture.export() == saved)
        #expect((await sender.next())["code"]?.int == 207)
        #expect((await sender.next())["code"]?.int == 4207)
        let list = try fixture.control("GET", "/_imock/apps/acme/chat/checkpoints")
        #expect(list.body["checkpoints"] == .array([.string("before-bob")]))

        // The restored tokens work again and bob's queue is empty.
        _ = try await fixture.device("alice", token: aliceToken, uuid: "a1")
        let bob = try await fixture.device("bob", token: bobToken, uuid: "b1")
        bob.send(#"{"op":"ping","id":"p"}"#)
        var frames: [String] = []
        while let op = (await bob.next())["op"]?.string, op != "pong" { frames.append(op) }
        #expect(!frames.contains("message"), "\(frames)")
        await fixture.stop()
    }

    @Test("reset of one app leaves another app's users and sessions intact")
    func resetIsPerApp() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        try fixture.addOtherApp()
        let otherToken = try fixture.otherUserToken("olga")
        let (olga, reply) = try await fixture.attemptLogin("olga", token: otherToken, uuid: "o1", app: SessionFixture.otherApp)
        #expect(reply["op"]?.string == "login.ok")
        let chatToken = try fixture.userToken("alice")
        let alice = try await fixture.device("alice", token: chatToken, uuid: "a1")
        let otherBefore = try fixture.export("acme/other")

        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/reset").status == 200)
        #expect((await alice.next(op: "kicked"))["code"]?.int == 207)
        #expect(try fixture.export("acme/other") == otherBefore)
        let sessions = try fixture.control("GET", "/_imock/apps/acme/other/sessions").body["sessions"]?.array ?? []
        #expect(sessions.map { $0["user"]?.string } == ["olga"])
        olga.send(#"{"op":"ping","id":"p"}"#)
        #expect((await olga.next())["op"]?.string == "pong")
        // Nothing but olga's own login was journalled for the other app: no kick, no close.
        let journal = try fixture.control("GET", "/_imock/journal?app=acme%23other")
        let ops = journal.body["entries"]?.array?.map { $0["event"]?["frame"]?["op"]?.string ?? "closed" } ?? []
        #expect(ops == ["login.ok"])
        // An app added after start has no start state of its own.
        #expect(try fixture.control("POST", "/_imock/apps/acme/other/reset").status == 404)
        await fixture.stop()
    }

    @Test("removing an app kicks its devices with 207 and forgets it; other apps stay; a global reset brings a start app back")
    func removeApp() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let start = try fixture.exportAll()
        try fixture.addOtherApp()
        let otherBefore = try fixture.export("acme/other")
        let token = try fixture.userToken("alice")
        let phone = try await fixture.device("alice", token: token, uuid: "a1")
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/checkpoints/c1").status == 200)
        _ = try fixture.control("POST", "/_imock/faults", json: #"{"kind":"noPong","app":"acme#chat"}"#)

        let removed = try fixture.control("DELETE", "/_imock/apps/acme/chat")
        #expect(removed.status == 200, "\(removed)")
        #expect(removed.body["removed"]?.string == "acme#chat")
        #expect(removed.body["faultsCleared"]?.int == 1)
        #expect((await phone.next(op: "kicked"))["code"]?.int == 207)
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/settings").status == 404)
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/checkpoints").status == 404)
        #expect(try fixture.control("DELETE", "/_imock/apps/acme/chat").status == 404)
        #expect(try fixture.export("acme/other") == otherBefore)
        #expect((try await fixture.attemptLogin("alice", token: token, uuid: "a2")).reply["op"]?.string == "login.error")

        #expect(try fixture.control("DELETE", "/_imock/apps/acme/other").status == 200)
        #expect(try fixture.control("POST", "/_imock/reset").status == 200)
        #expect(try fixture.exportAll() == start)
        await fixture.stop()
    }

    @Test("seed adds and replaces apps; the global reset goes back to the start seed")
    func seedAndGlobalReset() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let start = try fixture.exportAll()
        let seeded = try fixture.control(
            "POST", "/_imock/seed",
            json: #"{"version":1,"apps":[{"appKey":"acme#other","users":[{"username":"Olga","password":"pw"}]},{"appKey":"acme#chat"}]}"#)
        #expect(seeded.status == 200, "\(seeded)")
        #expect(seeded.body["added"] == .array([.string("acme#other")]))
        #expect(seeded.body["replaced"] == .array([.string("acme#chat")]))
        let other = try fixture.control("GET", "/_imock/apps/acme/other/settings")
        #expect(other.body["settings"]?["registrationMode"]?.string == "authorized")
        // Seeded users log in with their seeded passwords.
        let token = try fixture.http.request(
            "POST", "/acme/other/token", json: #"{"grant_type":"password","username":"olga","password":"pw"}"#)
        #expect(token.status == 200)

        let reset = try fixture.control("POST", "/_imock/reset")
        #expect(reset.status == 200, "\(reset)")
        #expect(reset.body["removed"] == .array([.string("acme#other")]))
        #expect(try fixture.exportAll() == start)
        await fixture.stop()
    }

    @Test(
        "bad state calls get a clear error and change nothing",
        arguments: [
            ("POST", "/_imock/seed", "{not json", "ok", 400),
            ("POST", "/_imock/seed", #"{"version":1,"apps":[{"appKey":"acme#chat","users":[{"username":"a b"}]}]}"#, "ok", 400),
            ("POST", "/_imock/seed", #"{"version":2,"apps":[]}"#, "ok", 400),
            ("POST", "/_imock/seed", #"{"version":1,"apps":[],"extra":1}"#, "ok", 400),
            ("POST", "/_imock/seed", #"{"version":1,"apps":[]}"#, "none", 401),
            ("POST", "/_imock/reset", #"{"all":true}"#, "ok", 400),
            ("POST", "/_imock/reset", nil, "wrong", 401),
            ("POST", "/_imock/apps/acme/none/reset", nil, "ok", 404),
            ("POST", "/_imock/apps/acme/chat/reset", "{oops", "ok", 400),
            ("POST", "/_imock/apps/acme/chat/reset", nil, "none", 401),
            ("GET", "/_imock/apps/acme/none/export", nil, "ok", 404),
            ("GET", "/_imock/export", nil, "none", 401),
            ("POST", "/_imock/apps/acme/none/checkpoints/c1", nil, "ok", 404),
            ("POST", "/_imock/apps/acme/chat/checkpoints/bad%20name", nil, "ok", 400),
            ("POST", "/_imock/apps/acme/chat/checkpoints/c1", #"{"note":"x"}"#, "ok", 400),
            ("POST", "/_imock/apps/acme/chat/checkpoints/c1", nil, "none", 401),
            ("POST", "/_imock/apps/acme/chat/checkpoints/never/restore", nil, "ok", 404),
            ("POST", "/_imock/apps/acme/none/checkpoints/c1/restore", nil, "ok", 404),
            ("GET", "/_imock/apps/acme/none/checkpoints", nil, "ok", 404),
            ("DELETE", "/_imock/apps/acme/none", nil, "ok", 404),
            ("DELETE", "/_imock/apps/acme/chat", #"{"force":true}"#, "ok", 400),
            ("DELETE", "/_imock/apps/acme/chat", nil, "none", 401),
        ] as [(String, String, String?, String, Int)])
    func badCalls(method: String, path: String, body: String?, secret: String, status: Int) async throws {
        let fixture = try SessionFixture(clock: .virtual)
        _ = try fixture.userToken("alice")
        let before = try fixture.exportAll()
        let response = try fixture.control(method, path, json: body, secret: secret)
        #expect(response.status == status, "\(response)")
        #expect(response.body["error_description"]?.string?.isEmpty == false)
        #expect(try fixture.exportAll() == before)
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/checkpoints").body["checkpoints"] == .array([]))
        await fixture.stop()
    }

    @Test("an invalid seed names the path of the offending value")
    func seedErrorPath() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let response = try fixture.control(
            "POST", "/_imock/seed",
            json: #"{"version":1,"apps":[{"appKey":"acme#x"},{"appKey":"acme#y","users":[{"username":"ok"},{"username":"a b"}]}]}"#)
        #expect(response.status == 400)
        #expect(response.body["error_description"]?.string?.contains("apps[1].users[1].username") == true, "\(response)")
        #expect(try fixture.control("GET", "/_imock/apps/acme/x/export").status == 404)
        await fixture.stop()
    }
}
