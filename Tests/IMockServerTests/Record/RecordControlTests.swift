import IMockCommon
import IMockServer
import IMockTestSupport
import Testing

@Suite("Control API: record mode")
struct RecordControlTests {
    @Test("a recording keeps the seed, logins, REST calls, kicks and closes in order, and no secret in clear")
    func recordsASession() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        _ = try fixture.userToken("ann")
        let started = try fixture.control("POST", "/_imock/record", json: #"{"app":"acme#chat","action":"start"}"#)
        #expect(started.status == 200, "\(started)")
        #expect(started.body["recording"] == .bool(true))
        let token = try fixture.userToken("bob")
        let phone = try await fixture.device("bob", token: token, uuid: "b1", name: "Bob's phone")
        _ = try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":60000}"#)
        let kicked = try fixture.control("POST", "/_imock/apps/acme/chat/kick", json: #"{"user":"bob","code":217}"#)
        #expect(kicked.status == 200)
        #expect((await phone.next())["op"]?.string == "kicked")
        #expect(try fixture.control("POST", "/_imock/record", json: #"{"app":"acme#chat","action":"stop"}"#).status == 200)
        let recording = try fixture.control("GET", "/_imock/record?app=acme%23chat")
        #expect(recording.status == 200)
        #expect(recording.body["format"]?.string == "imock-recording/1")
        #expect(recording.body["recording"] == .bool(false))
        let users = recording.body["seed"]?["apps"]?.array?.first?["users"]?.array?.compactMap { $0["username"]?.string }
        #expect(users == ["ann"])
        let events = recording.body["events"]?.array ?? []
        let kinds = events.map { event in
            event["in"]?.string.map { "in:" + $0 + (event["path"]?.string.map { " " + $0 } ?? "") }
                ?? "out:" + (event["event"]?["frame"]?["op"]?.string ?? event["event"]?["type"]?.string ?? event["out"]?.string ?? "?")
        }
        #expect(kinds == ["in:rest users", "in:rest token", "in:login", "out:login.ok", "in:control clock/advance",
                          "in:control apps/acme/chat/kick", "out:kicked", "out:closed", "in:disconnected"], "\(kinds)")
        let login = try #require(events.first { $0["in"]?.string == "login" })
        #expect(login["credential"]?["kind"]?.string == "user")
        #expect(login["device"]?["name"]?.string == "Bob's phone")
        #expect(events[0]["body"]?["password"]?.string == "<redacted>")
        #expect(events[0]["status"]?.int == 200)
        #expect(events[4]["atMs"]?.int == events[3]["atMs"]?.int)
        #expect(events[5]["atMs"]?.int == (events[3]["atMs"]?.int ?? 0) + 60000)
        let text = try fixture.control("GET", "/_imock/record?app=acme%23chat")
        #expect(!"\(text.body)".contains(token), "the token is in the recording")
        #expect(!"\(text.body)".contains("\"pw\""))
        await fixture.stop()
    }

    @Test("the list of recordings, and bad requests refused with the control API's error")
    func badInput() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        #expect(try fixture.control("GET", "/_imock/record").body["recordings"]?.array?.isEmpty == true)
        let cases: [(String, String, String?, Int)] = [
            ("POST", "/_imock/record", #"{"app":"acme#chat","action":"pause"}"#, 400),
            ("POST", "/_imock/record", #"{"app":"acme#chat"}"#, 400),
            ("POST", "/_imock/record", #"{"app":"nope","action":"start"}"#, 400),
            ("POST", "/_imock/record", #"{"app":"acme#none","action":"start"}"#, 404),
            ("POST", "/_imock/record", #"{"app":"acme#chat","action":"stop"}"#, 404),
            ("POST", "/_imock/record", #"{"app":"acme#chat","action":"start","x":1}"#, 400),
            ("GET", "/_imock/record?app=acme%23chat", nil, 404),
            ("GET", "/_imock/record?ap=acme%23chat", nil, 400),
            ("POST", "/_imock/record", #"{"app":"acme#chat","action":"callbacks","callbacks":[]}"#, 404),
            ("POST", "/_imock/record", #"{"app":"acme#chat","action":"start","callbacks":[]}"#, 400),
        ]
        for (method, path, body, status) in cases {
            let answer = try fixture.control(method, path, json: body)
            #expect(answer.status == status, "\(method) \(path) \(body ?? ""): \(answer)")
        }
        #expect(try fixture.control("POST", "/_imock/record", json: #"{"app":"acme#chat","action":"start"}"#, secret: "none").status == 401)
        _ = try fixture.control("POST", "/_imock/record", json: #"{"app":"acme#chat","action":"start"}"#)
        let callbacks = [
            (#"{"app":"acme#chat","action":"callbacks","callbacks":{}}"#, 400),
            (#"{"app":"acme#chat","action":"callbacks","callbacks":[{"name":"x"}]}"#, 400),
            (#"{"app":"acme#chat","action":"callbacks","callbacks":[{"resource":"ios_p1","name":"x","instance":0}]}"#, 400),
            (#"{"app":"acme#chat","action":"calls","callbacks":[]}"#, 400),
            (#"{"app":"acme#chat","action":"calls","calls":[{"call":{"do":"login"}}]}"#, 400),
            (#"{"app":"acme#chat","action":"calls","calls":[{"resource":"ios_p1","call":{"dance":1}}]}"#, 400),
            (#"{"app":"acme#chat","action":"calls","calls":[{"resource":"ios_p1","user":"ann","device":{},"instance":0,"call":{"do":"init"}}]}"#, 400),
            (#"{"app":"acme#chat","action":"callbacks","callbacks":[{"resource":"ios_p1","name":"loginCompletion","profile":"easemob"}]}"#, 200),
            (#"{"app":"acme#chat","action":"calls","calls":[{"resource":"ios_p1","user":"ann","device":{"platform":"ios","uuid":"p1"},"call":{"do":"login"}},{"call":{"issueToken":"t","user":"ann"}}]}"#, 200),
        ]
        for (body, status) in callbacks {
            #expect(try fixture.control("POST", "/_imock/record", json: body).status == status, "\(body)")
        }
        let kept = try fixture.control("GET", "/_imock/record?app=acme%23chat").body["events"]?.array ?? []
        #expect(kept.count == 3)
        #expect(kept.first?["callbacks"]?.array?.first?["name"]?.string == "loginCompletion")
        #expect(kept.dropFirst().map { $0["in"]?.string } == ["sdk", "sdk"])
        #expect(kept.last?["call"]?["issueToken"]?.string == "t")
        let listed = try fixture.control("GET", "/_imock/record").body["recordings"]?.array ?? []
        #expect(listed.count == 1)
        #expect(listed.first?["app"]?.string == "acme#chat")
        await fixture.stop()
    }

    @Test("imock serve --record records an app from the start")
    func recordAtBoot() async throws {
        let fixture = try SessionFixture(clock: .virtual, configure: { $0.recordedApps = ["acme#chat"] })
        _ = try fixture.userToken("cid")
        let recording = try fixture.control("GET", "/_imock/record?app=acme%23chat")
        #expect(recording.body["recording"] == .bool(true))
        #expect(recording.body["events"]?.array?.count == 2)
        await fixture.stop()
        let unknown = try SessionFixture(clock: .virtual, configure: { $0.recordedApps = ["acme#none"] })
        #expect(try unknown.control("GET", "/_imock/record").body["recordings"]?.array?.isEmpty == true)
        await unknown.stop()
    }
}
