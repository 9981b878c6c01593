import IMockCore
import IMockTestSupport
import Testing

/// OpenIM's REST API under `/openim/{org}/{app}` (docs/PROTOCOL-OPENIM.md): every route's
/// answer and every error code it documents, always HTTP 200 with `{errCode, errMsg, errDlt, data}`.
@Suite("OpenIM REST API")
struct OpenIMRESTTests {
    @Test("admin token: the envelope, a JWT for imAdmin on platform 10; wrong secret 1002, another userID 1001")
    func adminToken() async throws {
        let fixture = try await OpenIMServerFixture()
        defer { Task { await fixture.stop() } }
        let answer = try fixture.call("/auth/get_admin_token", #"{"secret":"\#(fixture.clientSecret)","userID":"imAdmin"}"#)
        #expect(answer.status == 200)
        #expect(answer.body["errCode"]?.intValue == 0 && answer.body["errMsg"] == "" && answer.body["errDlt"] == "")
        let token = try #require(answer.body["data"]?["token"]?.stringValue)
        #expect(token.hasPrefix("eyJ") && token.split(separator: ".").count == 3)
        #expect(answer.body["data"]?["expireTimeSeconds"]?.intValue == AppSettings.defaultTokenTTL)
        let parsed = try fixture.data("/auth/parse_token", #"{"token":"\#(token)"}"#)
        #expect(parsed["userID"] == "imAdmin" && parsed["platformID"]?.intValue == 10)
        #expect(try fixture.code("/auth/get_admin_token", #"{"secret":"nope","userID":"imAdmin"}"#) == 1002)
        // A wrong secret of any length: shorter, longer, empty (and no secret at all).
        for wrong in [String(fixture.clientSecret.dropLast()), fixture.clientSecret + "x", ""] {
            #expect(try fixture.code("/auth/get_admin_token", #"{"secret":"\#(wrong)","userID":"imAdmin"}"#) == 1002)
        }
        #expect(try fixture.code("/auth/get_admin_token", #"{"userID":"imAdmin"}"#) == 1002)
        #expect(try fixture.code("/auth/get_admin_token", #"{"secret":"\#(fixture.clientSecret)","userID":"alice"}"#) == 1001)
        #expect(try fixture.code("/auth/get_admin_token", #"{"secret":"\#(fixture.clientSecret)"}"#) == 1001)
    }

    @Test("headers and body: operationID (1001), token (1001), a body that is not JSON (1001), an unknown app (1004)")
    func headersAndBody() async throws {
        let fixture = try await OpenIMServerFixture()
        defer { Task { await fixture.stop() } }
        let admin = try fixture.adminToken()
        let noOperation = try fixture.call("/user/get_users_info", #"{"userIDs":["a"]}"#, token: admin, operationID: nil)
        #expect(noOperation.status == 200 && noOperation.body["errCode"]?.intValue == 1001)
        #expect(noOperation.body["errMsg"] == "ArgsError" && noOperation.body["errDlt"] == "header must have operationID")
        #expect(noOperation.body["data"] == nil)
        let noToken = try fixture.call("/user/get_users_info", #"{"userIDs":["a"]}"#)
        #expect(noToken.body["errCode"]?.intValue == 1001 && noToken.body["errDlt"] == "header must have token")
        #expect(try fixture.code("/user/get_users_info", "{not json", token: admin) == 1001)
        #expect(try fixture.code("/user/get_users_info", #"{"userIDs":"a"}"#, token: admin) == 1001)
        let unknown = try fixture.call("/auth/parse_token", #"{"token":"x"}"#, app: "acme/none")
        #expect(unknown.status == 200 && unknown.body["errCode"]?.intValue == 1004)
    }

    @Test("user token: admin only (1002), not platform 10 nor imAdmin (1002), a registered user (1004), a platform 1–11 (1001)")
    func userToken() async throws {
        let fixture = try await OpenIMServerFixture()
        defer { Task { await fixture.stop() } }
        let admin = try fixture.adminToken()
        #expect(try fixture.code("/user/user_register", #"{"users":[{"userID":"alice"}]}"#, token: admin) == 0)
        let alice = try fixture.userToken("alice", platform: 2, admin: admin)
        let parsed = try fixture.data("/auth/parse_token", #"{"token":"\#(alice)"}"#)
        #expect(parsed["userID"] == "alice" && parsed["platformID"]?.intValue == 2)
        #expect((parsed["expireTimeSeconds"]?.intValue ?? 0) > 1_000_000_000)  // the expiry as a Unix time
        let route = "/auth/get_user_token"
        #expect(try fixture.code(route, #"{"platformID":1,"userID":"alice"}"#, token: alice) == 1002)
        #expect(try fixture.code(route, #"{"platformID":10,"userID":"alice"}"#, token: admin) == 1002)
        #expect(try fixture.code(route, #"{"platformID":1,"userID":"imAdmin"}"#, token: admin) == 1002)
        #expect(try fixture.code(route, #"{"platformID":1,"userID":"nobody"}"#, token: admin) == 1004)
        #expect(try fixture.code(route, #"{"platformID":12,"userID":"alice"}"#, token: admin) == 1001)
        #expect(try fixture.code(route, #"{"platformID":1,"userID":""}"#, token: admin) == 1001)
        #expect(try fixture.code(route, #"{"userID":"alice"}"#, token: admin) == 1001)
    }

    @Test("parse token: malformed 1503, bad signature 1505, expired 1501, not in the store 1507, kicked 1506")
    func tokenErrors() async throws {
        let fixture = try await OpenIMServerFixture()
        defer { Task { await fixture.stop() } }
        let admin = try fixture.adminToken()
        _ = try fixture.data("/user/user_register", #"{"users":[{"userID":"alice"},{"userID":"bob"}]}"#, token: admin)
        let alice = try fixture.userToken("alice", platform: 1, admin: admin)
        func parse(_ token: String) throws -> Int64? { try fixture.code("/auth/parse_token", #"{"token":"\#(token)"}"#) }
        #expect(try parse("garbage") == 1503)
        #expect(try parse(String(alice.dropLast(4)) + "AAAA") == 1505)
        // Any route with a bad token gets the token's code.
        #expect(try fixture.code("/user/get_users_info", #"{"userIDs":["a"]}"#, token: "garbage") == 1503)
        // Revoked by the control API: not in the store.
        let revoke = try fixture.http.request(
            "POST", "/_imock/apps/acme/chat/tokens/revoke", json: #"{"user":"alice"}"#, token: InProcessServer.adminSecret)
        try #require(revoke.status == 200)
        #expect(try parse(alice) == 1507)
        // Force logout kicks the platform's tokens; others stay.
        let bobPhone = try fixture.userToken("bob", platform: 1, admin: admin)
        let bobPC = try fixture.userToken("bob", platform: 3, admin: admin)
        #expect(try fixture.code("/auth/force_logout", #"{"platformID":1,"userID":"bob"}"#, token: admin) == 0)
        #expect(try parse(bobPhone) == 1506)
        #expect(try parse(bobPC) == 0)
        let kicked = try fixture.call("/user/get_users_info", #"{"userIDs":["bob"]}"#, token: bobPhone)
        #expect(kicked.body["errCode"]?.intValue == 1506 && kicked.body["errMsg"] == "TokenKickedError")
        // Expiry follows the server's clock.
        try fixture.advance(ms: Int(AppSettings.defaultTokenTTL) * 1000)
        #expect(try parse(bobPC) == 1501)
    }

    @Test("force logout: admin only (1002), userID (1001), platform 1–10 (1001)")
    func forceLogout() async throws {
        let fixture = try await OpenIMServerFixture()
        defer { Task { await fixture.stop() } }
        let admin = try fixture.adminToken()
        _ = try fixture.data("/user/user_register", #"{"users":[{"userID":"alice"}]}"#, token: admin)
        let alice = try fixture.userToken("alice", platform: 1, admin: admin)
        let route = "/auth/force_logout"
        #expect(try fixture.code(route, #"{"platformID":1,"userID":"alice"}"#, token: alice) == 1002)
        #expect(try fixture.code(route, #"{"platformID":11,"userID":"alice"}"#, token: admin) == 1001)
        #expect(try fixture.code(route, #"{"platformID":0,"userID":"alice"}"#, token: admin) == 1001)
        #expect(try fixture.code(route, #"{"platformID":1}"#, token: admin) == 1001)
        let done = try fixture.call(route, #"{"platformID":1,"userID":"alice"}"#, token: admin)
        #expect(done.body["data"] == .object([]))
    }

    @Test("register: admin only (1002), users (1001), userIDs without ':' (1001), once (1001), imock usernames (1001), new (1102); nothing is created on error")
    func register() async throws {
        let fixture = try await OpenIMServerFixture()
        defer { Task { await fixture.stop() } }
        let admin = try fixture.adminToken()
        let route = "/user/user_register"
        let created = try fixture.call(route, #"{"users":[{"userID":"alice","nickname":"Alice"}]}"#, token: admin)
        #expect(created.body["errCode"]?.intValue == 0 && created.body["data"] == nil)
        let alice = try fixture.userToken("alice", platform: 1, admin: admin)
        #expect(try fixture.code(route, #"{"users":[{"userID":"bob"}]}"#, token: alice) == 1002)
        #expect(try fixture.code(route, #"{"users":[]}"#, token: admin) == 1001)
        #expect(try fixture.code(route, #"{"users":[{"userID":"a:b"}]}"#, token: admin) == 1001)
        #expect(try fixture.code(route, #"{"users":[{"userID":"bob"},{"userID":"bob"}]}"#, token: admin) == 1001)
        #expect(try fixture.code(route, #"{"users":[{"userID":"bo b"}]}"#, token: admin) == 1001)
        #expect(try fixture.code(route, #"{"users":[{"userID":""}]}"#, token: admin) == 1001)
        let again = try fixture.call(route, #"{"users":[{"userID":"carol"},{"userID":"alice"}]}"#, token: admin)
        #expect(again.body["errCode"]?.intValue == 1102 && again.body["errMsg"] == "RegisteredAlreadyError")
        let info = try fixture.data("/user/get_users_info", #"{"userIDs":["carol","bob"]}"#, token: admin)
        #expect(info["usersInfo"] == .array([]))
    }

    @Test("users' info and online status: known users only; an offline or unknown user has status 0")
    func infoAndStatus() async throws {
        let fixture = try await OpenIMServerFixture()
        defer { Task { await fixture.stop() } }
        let admin = try fixture.adminToken()
        _ = try fixture.data("/user/user_register", #"{"users":[{"userID":"alice","nickname":"Alice"}]}"#, token: admin)
        let alice = try fixture.userToken("alice", platform: 1, admin: admin)
        let info = try fixture.data("/user/get_users_info", #"{"userIDs":["alice","nobody"]}"#, token: alice)
        let users = try #require(info["usersInfo"]?.arrayValue)
        #expect(users.count == 1 && users.first?["userID"] == "alice" && users.first?["nickname"] == "Alice")
        #expect(try fixture.code("/user/get_users_info", #"{"userIDs":[]}"#, token: alice) == 1001)
        let status = try fixture.data("/user/get_users_online_status", #"{"userIDs":["alice","nobody"]}"#, token: alice)
        #expect(
            status == .array([
                .object([("userID", "alice"), ("status", 0), ("detailPlatformStatus", .array([]))]),
                .object([("userID", "nobody"), ("status", 0), ("detailPlatformStatus", .array([]))]),
            ]))
    }

    @Test("an Easemob app token is an admin; a YWMt user token parses with platform 0")
    func easemobTokens() async throws {
        let fixture = try await OpenIMServerFixture()
        defer { Task { await fixture.stop() } }
        let (id, secret) = try await fixture.server.credentials(of: "acme#chat")
        let grant = try fixture.http.request(
            "POST", "/acme/chat/token",
            json: #"{"grant_type":"client_credentials","client_id":"\#(id)","client_secret":"\#(secret)"}"#)
        let appToken = try #require(grant.body["access_token"]?.string)
        #expect(try fixture.code("/user/user_register", #"{"users":[{"userID":"alice"}]}"#, token: appToken) == 0)
        let user = try fixture.http.request(
            "POST", "/acme/chat/token", json: #"{"grant_type":"inherit","username":"alice"}"#, token: appToken)
        let userToken = try #require(user.body["access_token"]?.string)
        let admin = try fixture.data("/auth/parse_token", #"{"token":"\#(appToken)"}"#)
        #expect(admin["userID"] == "imAdmin" && admin["platformID"]?.intValue == 0)
        let alice = try fixture.data("/auth/parse_token", #"{"token":"\#(userToken)"}"#)
        #expect(alice["userID"] == "alice" && alice["platformID"]?.intValue == 0)
    }
}
