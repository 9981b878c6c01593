import IMockCommon
import Testing
import IMockServer
import IMockTestSupport

@Suite("Control API: issued-token listing")
struct TokenListingTests {
    /// `"id kind subject state"` of each listed token, newest first.
    static func summary(_ body: [String: JSONAny]) -> [String] {
        (body["tokens"]?.array ?? []).map { token in
            let id = token["id"]?.int.map { "\($0)" } ?? "?"
            let subject = token["subject"] == .null ? "-" : token["subject"]?.string ?? "?"
            return "\(id) \(token["kind"]?.string ?? "?") \(subject) \(token["state"]?.string ?? "?")"
        }
    }

    /// Logs `user` in as an OpenIM iOS device (`platformId` 1); returns the client and the reply.
    static func openIMDevice(_ fixture: SessionFixture, _ user: String, token: String, uuid: String) async throws
        -> (client: ProtocolClient, reply: [String: JSONAny])
    {
        let client = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
        client.send(
            #"{"op":"login","id":"login","appKey":"acme#chat","user":"\#(user)","token":"\#(token)","#
                + #""device":{"platformId":1,"name":"phone","uuid":"\#(uuid)"}}"#)
        return (client, await client.next(op: "login.ok"))
    }

    @Test("tokens issued over REST are listed newest first as live, expired, revoked and kicked")
    func everyState() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        // OpenIM policy 1: a second login on the same platform kicks the first and kills its token.
        let policy = try fixture.control(
            "POST", "/_imock/apps/acme/chat/settings", json: #"{"loginPolicy":{"vendor":"openim","policy":1}}"#)
        #expect(policy.status == 200, "\(policy)")
        let startMs = try #require(try fixture.control("GET", "/_imock/clock").body["nowMs"]?.int)
        let amyShort = try fixture.userToken("amy", ttl: 60)
        let amyRevoked = try fixture.userToken("amy", ttl: 3600, register: false)
        let bobKicked = try fixture.userToken("bob", ttl: 3600)
        let bobLive = try fixture.userToken("bob", ttl: 3600, register: false)
        _ = try await fixture.appToken()

        let fresh = try fixture.control("GET", "/_imock/apps/acme/chat/tokens")
        #expect(fresh.status == 200, "\(fresh)")
        let ids = (fresh.body["tokens"]?.array ?? []).compactMap { $0["id"]?.int }
        try #require(ids.count == 5)
        let (appID, bobLiveID, bobKickedID, amyRevokedID, amyShortID) = (ids[0], ids[1], ids[2], ids[3], ids[4])
        #expect(ids == (0..<5).map { appID - $0 })
        #expect(fresh.body["nextTokenId"]?.int == appID + 1)
        #expect(fresh.body["tokenRecordLimit"]?.int == 100_000)
        // Every field of one record; the prefix is "YWMt…" and the token's last 8 characters.
        let short = try #require(fresh.body["tokens"]?.array?.last)
        #expect(short == .object([
            "id": .number(Double(amyShortID)), "prefix": .string("YWMt…" + String(amyShort.suffix(8))),
            "kind": .string("user"), "subject": .string("amy"), "issuedAtMs": .number(Double(startMs)),
            "expiresAtMs": .number(Double(startMs + 60_000)), "state": .string("live"),
        ]))
        let app = try #require(fresh.body["tokens"]?.array?.first)
        #expect(app["kind"]?.string == "app" && app["subject"] == .null)
        #expect(app["expiresAtMs"]?.int == startMs + 604_800_000)

        // Kick bob's first device with his second login; revoke amy's second token by id.
        let first = try await Self.openIMDevice(fixture, "bob", token: bobKicked, uuid: "b1")
        let second = try await Self.openIMDevice(fixture, "bob", token: bobLive, uuid: "b2")
        #expect(first.reply["op"]?.string == "login.ok", "\(first.reply)")
        #expect(second.reply["op"]?.string == "login.ok", "\(second.reply)")
        #expect((await first.client.next())["op"]?.string == "kicked")
        let revoked = try fixture.control("POST", "/_imock/apps/acme/chat/tokens/revoke", json: #"{"tokenId":\#(amyRevokedID)}"#)
        #expect(revoked.status == 200, "\(revoked)")
        // Both are refused from now on.
        #expect((try await fixture.attemptLogin("amy", token: amyRevoked, uuid: "a1")).reply["code"]?.int == 104)
        #expect((try await fixture.attemptLogin("bob", token: bobKicked, uuid: "b3")).reply["code"]?.int == 104)

        let beforeExpiry = try fixture.control("GET", "/_imock/apps/acme/chat/tokens")
        #expect(Self.summary(beforeExpiry.body) == [
            "\(appID) app - live", "\(bobLiveID) user bob live", "\(bobKickedID) user bob kicked",
            "\(amyRevokedID) user amy revoked", "\(amyShortID) user amy live",
        ])
        // One ms before expiry amy's short token is live, at expiry it is expired.
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":59999}"#).status == 200)
        #expect(Self.summary(try fixture.control("GET", "/_imock/apps/acme/chat/tokens?state=live").body).count == 3)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":1}"#).status == 200)
        let listing = try fixture.control("GET", "/_imock/apps/acme/chat/tokens")
        #expect(Self.summary(listing.body) == [
            "\(appID) app - live", "\(bobLiveID) user bob live", "\(bobKickedID) user bob kicked",
            "\(amyRevokedID) user amy revoked", "\(amyShortID) user amy expired",
        ])
        // The counters are still there.
        #expect(listing.body["revokedTokenIds"] == .array([.number(Double(amyRevokedID)), .number(Double(bobKickedID))]))
        #expect(listing.body["sessions"]?.array?.map { $0["state"]?.string ?? "" } == ["live"])

        // Filters: by user (folded to lower case), by state, both.
        let filtered: [(String, [String])] = [
            ("?user=AMY", ["\(amyRevokedID) user amy revoked", "\(amyShortID) user amy expired"]),
            ("?state=kicked", ["\(bobKickedID) user bob kicked"]),
            ("?state=expired", ["\(amyShortID) user amy expired"]),
            ("?state=revoked", ["\(amyRevokedID) user amy revoked"]),
            ("?state=live&user=bob", ["\(bobLiveID) user bob live"]),
            ("?user=nobody", []),
        ]
        for (query, expected) in filtered {
            let answer = try fixture.control("GET", "/_imock/apps/acme/chat/tokens\(query)")
            #expect(answer.status == 200, "\(query): \(answer)")
            #expect(Self.summary(answer.body) == expected, "\(query)")
        }
        await fixture.stop()
    }

    @Test(
        "a bad query is a 400 naming it",
        arguments: [
            ("?state=dead", "'state' must be one of live, expired, revoked, kicked; got 'dead'"),
            ("?state=", "'state' must be one of live, expired, revoked, kicked; got ''"),
            ("?state=LIVE", "'state' must be one of live, expired, revoked, kicked; got 'LIVE'"),
            ("?user=a%20b", "'user' must be a legal username; got 'a b'"),
            ("?user=", "'user' must be a legal username; got ''"),
            ("?limit=3", "unknown query parameter 'limit'; allowed: state, user"),
        ])
    func badQuery(query: String, message: String) async throws {
        let fixture = try SessionFixture(clock: .virtual)
        _ = try fixture.userToken("una")
        let response = try fixture.control("GET", "/_imock/apps/acme/chat/tokens\(query)")
        #expect(response.status == 400, "\(response)")
        #expect(response.body["error_description"]?.string == message)
        await fixture.stop()
    }
}
