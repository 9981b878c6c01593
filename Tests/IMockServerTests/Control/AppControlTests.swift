import IMockCommon
import Testing
import IMockServer
import IMockTestSupport

@Suite("Control API: app switches")
struct AppControlTests {
    @Test("GET returns the settings in seed form; POST changes only the fields it names")
    func readAndChange() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let before = try fixture.control("GET", "/_imock/apps/acme/chat/settings")
        #expect(before.status == 200)
        #expect(before.body["settings"]?["registrationMode"]?.string == "open")
        #expect(before.body["settings"]?["activeUserLimit"] == .null)
        #expect(before.body["settings"]?["loginPolicy"]?["vendor"]?.string == "easemob")

        let changed = try fixture.control(
            "POST", "/_imock/apps/acme/chat/settings",
            json: #"{"defaultTokenTTLSeconds":60,"restRateLimitPerSecond":50,"loginPolicy":{"vendor":"easemob","mode":"singleDevice"}}"#)
        #expect(changed.status == 200, "\(changed)")
        let settings = try fixture.control("GET", "/_imock/apps/acme/chat/settings").body["settings"]
        #expect(settings?["defaultTokenTTLSeconds"]?.int == 60)
        #expect(settings?["restRateLimitPerSecond"]?.int == 50)
        #expect(settings?["loginPolicy"]?["mode"]?.string == "singleDevice")
        #expect(settings?["loginPolicy"]?["rule"]?.string == "newKicksOld")
        #expect(settings?["registrationMode"]?.string == "open")

        // The new default TTL applies to the next token.
        _ = try fixture.http.request("POST", "/acme/chat/users", json: #"{"username":"tia","password":"pw"}"#)
        let token = try fixture.http.request(
            "POST", "/acme/chat/token", json: #"{"grant_type":"password","username":"tia","password":"pw"}"#)
        #expect(token.body["expires_in"]?.int == 60)

        // null makes a limit unlimited again.
        _ = try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"restRateLimitPerSecond":null}"#)
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/settings").body["settings"]?["restRateLimitPerSecond"] == .null)
        await fixture.stop()
    }

    @Test("serviceEnabled false kicks live devices with 305 and refuses logins with 305 until enabled again")
    func serviceDisabled() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("dora")
        let phone = try await fixture.device("dora", token: token, uuid: "d1")
        let off = try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"serviceEnabled":false}"#)
        #expect(off.status == 200, "\(off)")
        #expect(off.body["kicked"] == .array([.string("ios_d1")]))
        let kicked = await phone.next()
        #expect(kicked["op"]?.string == "kicked")
        #expect(kicked["code"]?.int == 305)
        #expect((await phone.next())["code"]?.int == 4305)

        let (refusedClient, refused) = try await fixture.attemptLogin("dora", token: token, uuid: "d2")
        #expect(refused["op"]?.string == "login.error")
        #expect(refused["code"]?.int == 305)
        #expect((await refusedClient.next())["code"]?.int == 4305)

        _ = try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"serviceEnabled":true}"#)
        #expect((try await fixture.attemptLogin("dora", token: token, uuid: "d3")).reply["op"]?.string == "login.ok")
        await fixture.stop()
    }

    @Test("activeUserLimit 1 refuses a second distinct user with 8")
    func activeUserLimit() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let set = try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: #"{"activeUserLimit":1}"#)
        #expect(set.status == 200, "\(set)")
        let first = try fixture.userToken("ann")
        let second = try fixture.userToken("ben")
        _ = try await fixture.device("ann", token: first, uuid: "a1")
        let (client, reply) = try await fixture.attemptLogin("ben", token: second, uuid: "b1")
        #expect(reply["op"]?.string == "login.error")
        #expect(reply["code"]?.int == 8)
        #expect((await client.next())["code"]?.int == 4008)
        // The user already counted may log in on another device.
        #expect((try await fixture.attemptLogin("ann", token: first, uuid: "a2")).reply["op"]?.string == "login.ok")
        #expect(try fixture.control("GET", "/_imock/apps/acme/chat/settings").body["activeUserCount"]?.int == 1)
        await fixture.stop()
    }

    @Test(
        "bad settings calls get a clear error and change nothing",
        arguments: [
            ("POST", "/_imock/apps/acme/chat/settings", "{not json", "ok", 400, ""),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"serviceEnabld":false}"#, "ok", 400, "serviceEnabld"),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"serviceEnabled":"no"}"#, "ok", 400, "serviceEnabled"),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"serviceEnabled":null}"#, "ok", 400, "serviceEnabled"),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"registrationMode":"closed"}"#, "ok", 400, "registrationMode"),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"defaultTokenTTLSeconds":-1}"#, "ok", 400, "defaultTokenTTLSeconds"),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"activeUserLimit":1.5}"#, "ok", 400, "activeUserLimit"),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"restRateLimitPerSecond":0}"#, "ok", 400, "restRateLimitPerSecond"),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"serviceEnabled":false,"loginPolicy":{"vendor":"easemob","mode":"both"}}"#, "ok", 400, "loginPolicy.mode"),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"loginPolicy":{"vendor":"easemob","deviceLimits":{"mobile":-1}}}"#, "ok", 400, "loginPolicy.deviceLimits.mobile"),
            ("POST", "/_imock/apps/acme/none/settings", #"{"serviceEnabled":false}"#, "ok", 404, ""),
            ("GET", "/_imock/apps/acme/none/settings", nil, "ok", 404, ""),
            ("POST", "/_imock/apps/acme/chat/settings", #"{"serviceEnabled":false}"#, "none", 401, ""),
            ("GET", "/_imock/apps/acme/chat/settings", nil, "wrong", 401, ""),
        ] as [(String, String, String?, String, Int, String)])
    func badCalls(method: String, path: String, body: String?, secret: String, status: Int, mentions: String) async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("eve")
        let phone = try await fixture.device("eve", token: token, uuid: "e1")
        let before = try fixture.exportAll()
        let response = try fixture.control(method, path, json: body, secret: secret)
        #expect(response.status == status, "\(response)")
        let description = response.body["error_description"]?.string ?? ""
        #expect(!description.isEmpty)
        #expect(mentions.isEmpty || description.contains(mentions), "\(description)")
        #expect(try fixture.exportAll() == before)
        phone.send(#"{"op":"ping","id":"p"}"#)
        #expect((await phone.next())["op"]?.string == "pong")
        await fixture.stop()
    }
}
