import IMockCommon
import Testing
import IMockServer
import IMockTestSupport

@Suite("Control API: token faults")
struct TokenControlTests {
    @Test("expire now: token.expired then close 4108, and the old token then fails with 104")
    func expireNow() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("tom")
        let phone = try await fixture.device("tom", token: token, os: "android", uuid: "t1")
        let tablet = try await fixture.device("tom", token: token, uuid: "t2")
        let expired = try fixture.control("POST", "/_imock/apps/acme/chat/tokens/expire", json: #"{"user":"tom"}"#)
        #expect(expired.status == 200, "\(expired)")
        #expect(expired.body["expired"] == .array([.string("android_t1"), .string("ios_t2")]))
        for device in [phone, tablet] {
            #expect((await device.next())["op"]?.string == "token.expired")
            #expect((await device.next())["code"]?.int == 4108)
        }
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array?.isEmpty == true)
        let (client, reply) = try await fixture.attemptLogin("tom", token: token, uuid: "t3")
        #expect(reply["op"]?.string == "login.error")
        #expect(reply["code"]?.int == 104)
        #expect((await client.next())["code"]?.int == 4104)
        // The journal records the expiry like the timer's.
        let entries = try fixture.control("GET", "/_imock/journal?app=acme%23chat").body["entries"]?.array ?? []
        let events = entries.map { $0["event"]?["frame"]?["op"]?.string ?? "closed \($0["event"]?["code"]?.int ?? 0)" }
            .filter { $0 != "login.ok" }
        #expect(Array(events.prefix(4)) == ["token.expired", "closed 4108", "token.expired", "closed 4108"])
        // A fresh token works.
        let fresh = try fixture.userToken("tom", register: false)
        #expect((try await fixture.attemptLogin("tom", token: fresh, uuid: "t4")).reply["op"]?.string == "login.ok")
        await fixture.stop()
    }

    @Test("revoke a user's tokens: live sessions stay, the next login with them gets 104")
    func revokeUser() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("rita")
        let phone = try await fixture.device("rita", token: token, uuid: "r1")
        let revoked = try fixture.control("POST", "/_imock/apps/acme/chat/tokens/revoke", json: #"{"user":"Rita"}"#)
        #expect(revoked.status == 200, "\(revoked)")
        #expect(revoked.body["user"]?.string == "rita")
        phone.send(#"{"op":"ping","id":"p"}"#)
        #expect((await phone.next())["op"]?.string == "pong")
        #expect((try await fixture.attemptLogin("rita", token: token, uuid: "r2")).reply["code"]?.int == 104)
        let listing = try fixture.control("GET", "/_imock/apps/acme/chat/tokens")
        #expect(listing.body["sessions"]?.array?.first?["state"]?.string == "revoked")
        await fixture.stop()
    }

    @Test("revoke one token by id; the listing shows ids and states")
    func revokeByID() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let first = try fixture.userToken("ivy")
        let second = try fixture.userToken("ivy", register: false)
        _ = try await fixture.device("ivy", token: first, uuid: "i1")
        let listing = try fixture.control("GET", "/_imock/apps/acme/chat/tokens")
        #expect(listing.status == 200)
        let session = try #require(listing.body["sessions"]?.array?.first)
        #expect(session["state"]?.string == "live")
        let firstID = try #require(session["loginTokenId"]?.int)
        #expect(listing.body["nextTokenId"]?.int == firstID + 2)
        #expect(listing.body["users"] == .array([.object(["user": .string("ivy"), "minimumTokenId": .number(Double(firstID))])]))

        let revoked = try fixture.control("POST", "/_imock/apps/acme/chat/tokens/revoke", json: #"{"tokenId":\#(firstID)}"#)
        #expect(revoked.status == 200, "\(revoked)")
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/tokens").body["revokedTokenIds"] == .array([.number(Double(firstID))]))
        #expect((try await fixture.attemptLogin("ivy", token: first, uuid: "i2")).reply["code"]?.int == 104)
        #expect((try await fixture.attemptLogin("ivy", token: second, uuid: "i3")).reply["op"]?.string == "login.ok")
        await fixture.stop()
    }

    @Test(
        "bad token calls get a clear error and change nothing",
        arguments: [
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", "{not json", "ok", 400),
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", "{}", "ok", 400),
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", #"{"user":"una","tokenId":1}"#, "ok", 400),
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", #"{"user":"una","all":true}"#, "ok", 400),
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", #"{"tokenId":"1"}"#, "ok", 400),
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", #"{"user":"ghost"}"#, "ok", 404),
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", #"{"tokenId":999}"#, "ok", 404),
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", #"{"tokenId":0}"#, "ok", 400),
            ("POST", "/_imock/apps/acme/none/tokens/revoke", #"{"user":"una"}"#, "ok", 404),
            ("POST", "/_imock/apps/acme/chat/tokens/revoke", #"{"user":"una"}"#, "none", 401),
            ("POST", "/_imock/apps/acme/chat/tokens/expire", "[1]", "ok", 400),
            ("POST", "/_imock/apps/acme/chat/tokens/expire", "{}", "ok", 400),
            ("POST", "/_imock/apps/acme/chat/tokens/expire", #"{"user":"una","resource":"x"}"#, "ok", 400),
            ("POST", "/_imock/apps/acme/chat/tokens/expire", #"{"user":"ghost"}"#, "ok", 404),
            ("POST", "/_imock/apps/acme/none/tokens/expire", #"{"user":"una"}"#, "ok", 404),
            ("POST", "/_imock/apps/acme/chat/tokens/expire", #"{"user":"una"}"#, "wrong", 401),
            ("GET", "/_imock/apps/acme/none/tokens", nil, "ok", 404),
            ("GET", "/_imock/apps/acme/chat/tokens", nil, "none", 401),
        ] as [(String, String, String?, String, Int)])
    func badCalls(method: String, path: String, body: String?, secret: String, status: Int) async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("una")
        let phone = try await fixture.device("una", token: token, uuid: "u1")
        let before = try fixture.exportAll()
        let response = try fixture.control(method, path, json: body, secret: secret)
        #expect(response.status == status, "\(response)")
        #expect(response.body["error_description"]?.string?.isEmpty == false)
        #expect(try fixture.exportAll() == before)
        phone.send(#"{"op":"ping","id":"p"}"#)
        #expect((await phone.next())["op"]?.string == "pong")
        await fixture.stop()
    }
}
