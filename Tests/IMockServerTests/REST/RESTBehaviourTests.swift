import IMockCommon
import IMockCore
import IMockNet
import Testing

@testable import IMockServer

@Suite struct RESTBehaviourTests {
    @Test func effectsOfUserRoutes() throws {
        var fixture = try RESTFixture()
        fixture.presence = FixedPresence(sessions: [
            "alice": [DeviceEntry(resource: "web_1", deviceUUID: "d-1", deviceName: "Chrome")]
        ])
        let key = fixture.chat
        #expect(fixture.send("GET", "/acme/chat/users/alice/disconnect", token: fixture.appToken).effects == [.disconnectUser(key, username: "alice", resource: nil)])
        let one = fixture.send("DELETE", "/acme/chat/users/alice/disconnect/web_1", token: fixture.appToken)
        #expect(one.effects == [.disconnectUser(key, username: "alice", resource: "web_1")])
        #expect(one.json["data"] == ["result": true] && one.json["action"] == "delete")
        let status = fixture.send("GET", "/acme/chat/users/alice/status", token: fixture.appToken)
        #expect(status.json["data"] == ["alice": "online"])
        let batch = fixture.send("POST", "/acme/chat/users/batch/status", body: #"{"usernames":["alice","Zed"]}"#, token: fixture.appToken)
        #expect(batch.json["data"] == [["alice": "online"], ["Zed": "offline"]])
        #expect(batch.json["action"] == "get batch user status")
        let resources = fixture.send("GET", "/acme/chat/users/alice/resources", token: fixture.aliceToken)
        #expect(resources.json["data"] == [["res": "web_1", "device_uuid": "d-1", "device_name": "Chrome"]])
        #expect(resources.json["path"] == "/users/alice/resources")
        let deactivate = fixture.send("POST", "/acme/chat/users/alice/deactivate", token: fixture.appToken)
        #expect(deactivate.effects == [.userDeactivated(key, username: "alice")])
        #expect(deactivate.json["entities"]?.arrayValue?.first?["activated"] == false)
        #expect(fixture.send("POST", "/acme/chat/token", body: #"{"grant_type":"password","username":"alice","password":"pw"}"#).json["error_description"] == "user not activated")
        #expect(fixture.send("POST", "/acme/chat/users/alice/activate", token: fixture.appToken).bodyText == #"{"action":"activate user","timestamp":\#(fixture.nowMs),"duration":0}"#)
        let password = fixture.send("PUT", "/acme/chat/users/alice/password", body: #"{"newpassword":"new"}"#, token: fixture.appToken)
        #expect(password.bodyText == #"{"action":"set user password","timestamp":\#(fixture.nowMs),"duration":0}"#)
        #expect(password.effects == [.passwordChanged(key, username: "alice")])
        // The old user token is refused after the password change.
        #expect(fixture.send("GET", "/acme/chat/users/alice/resources", token: fixture.aliceToken).errorName == "unauthorized")
        let delete = fixture.send("DELETE", "/acme/chat/users/alice", token: fixture.appToken)
        #expect(delete.effects == [.userDeleted(key, username: "alice")])
        #expect(delete.json["action"] == "delete")
    }

    @Test func batchRegistrationReportsExistingUsers() throws {
        var fixture = try RESTFixture()
        let outcome = fixture.send("POST", "/acme/chat/users", body: #"[{"username":"b1","password":"p"},{"username":"alice","password":"p"}]"#, token: fixture.appToken)
        #expect(outcome.response.status == 200)
        #expect(outcome.json["entities"]?.arrayValue?.compactMap { $0["username"]?.stringValue } == ["b1"])
        #expect(outcome.json["data"] == [["username": "alice", "registerUserFailReason": "the alice already exists"]])
    }

    @Test func duplicateNamesTheAppUUID() throws {
        var fixture = try RESTFixture()
        let outcome = fixture.send("POST", "/acme/chat/users", body: #"{"username":"alice","password":"p"}"#, token: fixture.appToken)
        #expect(outcome.json["error_description"]?.stringValue == "Application \(fixture.app.uuid) Entity user requires that property named username be unique, value of alice exists")
    }

    @Test func listUsersPaginatesWithAnOpaqueCursor() throws {
        var fixture = try RESTFixture()
        let body = "[" + (1...4).map { #"{"username":"u\#($0)","password":"p"}"# }.joined(separator: ",") + "]"
        #expect(fixture.send("POST", "/acme/chat/users", body: body, token: fixture.appToken).response.status == 200)
        let first = fixture.send("GET", "/acme/chat/users?limit=2", token: fixture.appToken)
        #expect(first.json["params"] == ["limit": ["2"]])
        #expect(first.json["count"] == 2)
        let cursor = try #require(first.json["cursor"]?.stringValue)
        var names = first.json["entities"]?.arrayValue?.compactMap { $0["username"]?.stringValue } ?? []
        var next: String? = cursor
        while let cursor = next {
            let page = fixture.send("GET", "/acme/chat/users?limit=2&cursor=\(cursor)", token: fixture.appToken)
            names += page.json["entities"]?.arrayValue?.compactMap { $0["username"]?.stringValue } ?? []
            next = page.json["cursor"]?.stringValue
        }
        #expect(names == ["alice", "u1", "u2", "u3", "u4"])
    }

    @Test func rateLimitFollowsTheClock() throws {
        var fixture = try RESTFixture(rateLimit: 2)
        let statuses = (0..<3).map { _ in fixture.send("GET", "/acme/chat/users/alice", token: fixture.appToken) }
        #expect(statuses.map(\.response.status) == [200, 200, 429])
        #expect(statuses[2].bodyText == errorBody(429, "reach_limit", "ReachLimitException", "This request has reached api limit", nowMs: fixture.nowMs))
        fixture.nowMs += 1_000
        #expect(fixture.send("GET", "/acme/chat/users/alice", token: fixture.appToken).response.status == 200)
    }

    @Test func expiredTokenOnAVirtualClock() throws {
        var fixture = try RESTFixture()
        let clock = Timeline(mode: .virtual, startMs: fixture.nowMs)
        let issued = fixture.send("POST", "/acme/chat/token", body: #"{"grant_type":"client_credentials","client_id":"cid","client_secret":"secret","ttl":60}"#)
        let token = try #require(issued.json["access_token"]?.stringValue)
        try clock.advance(by: 60_000)
        fixture.nowMs = clock.nowMs
        let outcome = fixture.send("GET", "/acme/chat/users/alice", token: token)
        #expect(outcome.json["error_description"] == "Unable to authenticate due to expired access token")
        #expect(outcome.response.status == 401)
    }

    @Test func tenThousandUsersInBatchesOfSixtyWithATokenEach() throws {
        var fixture = try RESTFixture()
        let total = 10_000
        var registered = 0
        var start = 0
        while start < total {
            let end = min(start + Directory.maximumBatchSize, total)
            let body = "[" + (start..<end).map { #"{"username":"load\#($0)","password":"p\#($0)"}"# }.joined(separator: ",") + "]"
            let outcome = fixture.send("POST", "/acme/chat/users", body: body, token: fixture.appToken)
            registered += outcome.json["entities"]?.arrayValue?.count ?? 0
            start = end
        }
        #expect(registered == total)
        var tokens = Set<String>()
        for index in 0..<total {
            let outcome = fixture.send("POST", "/acme/chat/token", body: #"{"grant_type":"password","username":"load\#(index)","password":"p\#(index)"}"#)
            if let token = outcome.json["access_token"]?.stringValue { tokens.insert(token) }
        }
        #expect(tokens.count == total)
        #expect(fixture.app.userCount == total + 1)
    }
}
