import IMockCommon
import Testing
import IMockServer
import IMockTestSupport

@Suite("Control API: clock, kicks, inspection")
struct ClockControlTests {
    @Test("a one-hour token goes through willExpire and expiry with two clock calls and no sleep")
    func oneHourTokenOnTheVirtualClock() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let token = try fixture.userToken("vera", ttl: 3600)
        let device = try await fixture.device("vera", token: token, uuid: "v")
        let start = try fixture.control("GET", "/_imock/clock")
        #expect(start.body["frozen"] == .bool(true))
        let startMs = try #require(start.body["nowMs"]?.int)

        let first = try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":2880000}"#)
        #expect(first.status == 200)
        #expect(first.body["nowMs"]?.int == startMs + 2_880_000)
        let warning = await device.next()
        #expect(warning["op"]?.string == "token.willExpire", "\(warning)")

        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":720000}"#).status == 200)
        #expect((await device.next())["op"]?.string == "token.expired")
        #expect((await device.next())["code"]?.int == 4108)
        let journal = try fixture.control("GET", "/_imock/journal?app=acme%23chat")
        let closes = journal.body["entries"]?.array?.compactMap { $0["event"]?["code"]?.int } ?? []
        #expect(closes == [4108])
        await fixture.stop()
    }

    @Test("the clock refuses to move backwards and a frozen clock resumes from where it stands")
    func clockRules() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let now = try #require(try fixture.control("GET", "/_imock/clock").body["nowMs"]?.int)
        let back = try fixture.control("POST", "/_imock/clock/set", json: #"{"epochMs":\#(now - 1)}"#)
        #expect(back.status == 400)
        #expect(back.body["error"]?.string == "illegal_argument")
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":-5}"#).status == 400)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"seconds":5}"#).status == 400)
        let resumed = try fixture.control("POST", "/_imock/clock/resume")
        #expect(resumed.body["frozen"] == .bool(false))
        #expect((resumed.body["nowMs"]?.int ?? 0) >= now)
        await fixture.stop()
    }

    @Test("kick any code through the control API; inspection lists sessions")
    func kickAndInspect() async throws {
        let fixture = try SessionFixture()
        let token = try fixture.userToken("kim")
        let phone = try await fixture.device("kim", token: token, os: "android", uuid: "k1")
        let sessions = try fixture.control("GET", "/_imock/apps/acme/chat/sessions")
        #expect(sessions.body["sessions"]?.array?.first?["resource"]?.string == "android_k1")
        #expect(sessions.body["sessions"]?.array?.first?["group"]?.string == "mobile")
        let kick = try fixture.control(
            "POST", "/_imock/apps/acme/chat/kick",
            json: #"{"user":"kim","code":214,"reason":"too many devices","byDeviceName":"x"}"#)
        #expect(kick.status == 200, "\(kick)")
        let kicked = await phone.next(op: "kicked")
        #expect(kicked["code"]?.int == 214)
        #expect((await phone.next(op: "<closed>"))["code"]?.int == 4214)
        await fixture.stop()
    }

    @Test(
        "bad control calls get a clear error and change nothing",
        arguments: [
            ("GET", "/_imock/clock", nil, "none", 401),
            ("GET", "/_imock/clock", nil, "wrong", 401),
            ("POST", "/_imock/clock/advance", "{not json", "ok", 400),
            ("POST", "/_imock/clock/advance", "[1]", "ok", 400),
            ("GET", "/_imock/apps/nope/none/sessions", nil, "ok", 404),
            ("POST", "/_imock/apps/acme/chat/kick", #"{"user":"ghost","code":206}"#, "ok", 404),
            ("POST", "/_imock/apps/acme/chat/kick", #"{"user":"ghost","code":0}"#, "ok", 400),
        ] as [(String, String, String?, String, Int)])
    func badCalls(method: String, path: String, body: String?, secret: String, status: Int) async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let before = try fixture.control("GET", "/_imock/clock").body["nowMs"]
        let response = try fixture.control(method, path, json: body, secret: secret)
        #expect(response.status == status, "\(response)")
        #expect(response.body["error_description"]?.string?.isEmpty == false)
        #expect(try fixture.control("GET", "/_imock/clock").body["nowMs"] == before)
        await fixture.stop()
    }
}
