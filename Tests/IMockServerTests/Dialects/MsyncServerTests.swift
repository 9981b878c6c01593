import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport
import IMockWire
import Testing

/// The msync dialect through the real server and engine, over loopback: delivery across
/// reconnects, REST renewal, the journal, the control API and faults (docs/PROTOCOL-MSYNC.md).
@Suite("msync through the server")
struct MsyncServerTests {
    @Test("offline messages: a page never confirmed comes again at the next login; a confirmed one never")
    func offlineExactlyOnce() async throws {
        let fixture = try SessionFixture()
        let aliceToken = try fixture.userToken("alice")
        let bobToken = try fixture.userToken("bob")
        let (alice, _) = try await MsyncTestDevice.login(fixture, user: "alice", token: aliceToken, resource: "webim_a")
        for id in 1...3 { #expect(try await alice.sendText("t\(id)", to: "bob", id: UInt64(id)).status == MsyncPB.Status()) }

        let (first, reply) = try await MsyncTestDevice.login(fixture, user: "bob", token: bobToken, resource: "webim_b")
        #expect(reply.status == MsyncPB.Status())
        #expect(reply.resource == "webim_b")
        #expect(try await first.unreadQueues() == ["alice=3"])
        let page = try await first.pull("alice")
        #expect(try MsyncTestDevice.messages(page) == ["1:t1", "2:t2", "3:t3"])
        first.close()  // without confirming the page

        let (second, _) = try await MsyncTestDevice.login(fixture, user: "bob", token: bobToken, resource: "webim_b")
        #expect(try await second.unreadQueues() == ["alice=3"])
        let again = try await second.pull("alice")
        #expect(try MsyncTestDevice.messages(again) == ["1:t1", "2:t2", "3:t3"], "the same ids again")
        let last = try await second.pull("alice", key: again.nextKey)
        #expect(last.metas.isEmpty && last.isLast == true)
        second.close()

        let (third, _) = try await MsyncTestDevice.login(fixture, user: "bob", token: bobToken, resource: "webim_b")
        #expect(try await third.unreadQueues() == [])
        third.close()
        alice.close()
        await fixture.stop()
    }

    @Test("a live message announced but not pulled when the connection closes waits for the next login")
    func liveMessageKept() async throws {
        let fixture = try SessionFixture()
        let aliceToken = try fixture.userToken("alice")
        let bobToken = try fixture.userToken("bob")
        let (bob, _) = try await MsyncTestDevice.login(fixture, user: "bob", token: bobToken, resource: "webim_b")
        #expect(try await bob.unreadQueues() == [])
        let (alice, _) = try await MsyncTestDevice.login(fixture, user: "alice", token: aliceToken, resource: "webim_a")
        let ack = try await alice.sendText("live", to: "bob", id: 9)
        let notice = try await bob.next(.notice, as: MsyncPB.CommNotice.self)
        #expect(notice.queue?.name == "alice")
        bob.close()
        let bobGone = try await eventually(fixture.server) { $0.sessions(of: "bob", in: try! AppKey(parsing: "acme#chat")).isEmpty }
        #expect(bobGone)

        let (again, _) = try await MsyncTestDevice.login(fixture, user: "bob", token: bobToken, resource: "webim_b")
        #expect(try await again.unreadQueues() == ["alice=1"])
        let page = try await again.pull("alice")
        #expect(try MsyncTestDevice.messages(page) == ["\(ack.serverId ?? 0):live"])
        again.close()
        alice.close()
        await fixture.stop()
    }

    /// Web SDK 4.15.0 and later fire `onTokenWillExpire` when `expiry − server time` is at most
    /// a fifth of the token's life: a warning that says the warning's deadline (80 %) after a
    /// jump to 85, 95 or 99 % never fired it. It carries the server's now.
    @Test("after a clock jump past the warning's deadline, the msync warning carries the server's now", arguments: [85, 95, 99])
    func tokenWarningCarriesTheServersNow(percent: Int) async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let (dora, expiresAt) = try await Self.webDevice(fixture, user: "dora")
        let issuedAt = expiresAt - 100_000
        let target = issuedAt + Int(percent) * 1000
        try Self.advanceClock(fixture, to: target)
        let warning = try await dora.next(.unread, as: MsyncPB.CommUnreadDL.self)
        #expect(Int(warning.timestamp ?? 0) == target, "the warning says \(Int(warning.timestamp ?? 0) - issuedAt) ms into the life")
        #expect(expiresAt - Int(warning.timestamp ?? 0) <= 20_000, "at most a fifth of the life left, as the SDK checks")
        dora.close()
        await fixture.stop()
    }

    /// Issue 22: the Web SDK compares `expiry − server time` with a fifth of the life *it* saw at
    /// login (`expiry − Date.now()` when the PROVISION answer came, `<=`), which starts after the
    /// server's; a warning that says exactly 80 % leaves a fifth of the token's life, just outside
    /// the SDK's window, and it never fired at the default percentage. The msync warning comes as
    /// a heartbeat answer after the threshold would: a second after it, strictly inside.
    @Test("at the default 80 %, the msync warning comes a heartbeat's second after the threshold, strictly inside the last fifth")
    func tokenWarningComesAfterTheThreshold() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let (erin, expiresAt) = try await Self.webDevice(fixture, user: "erin")
        let threshold = expiresAt - 20_000
        try Self.advanceClock(fixture, to: threshold)
        try Self.advanceClock(fixture, to: threshold + 1000)
        let warning = try await erin.next(.unread, as: MsyncPB.CommUnreadDL.self)
        let said = Int(warning.timestamp ?? 0)
        #expect(said == threshold + 1000, "the warning says \(said - threshold) ms after the threshold")
        #expect(expiresAt - said < 20_000, "strictly less than a fifth of the life left")
        erin.close()
        await fixture.stop()
    }

    /// A Web SDK device of `user` logged in with a token of 100 s, and the token's expiry.
    static func webDevice(_ fixture: SessionFixture, user: String) async throws -> (MsyncTestDevice, Int) {
        let token = try fixture.userToken(user, ttl: 100)
        let (device, reply) = try await MsyncTestDevice.login(fixture, user: user, token: token, resource: "webim_\(user)")
        return (device, Int(try #require(MsyncProvision.expiresAt(replyAuthToken: reply.authToken))))
    }

    /// Moves the virtual clock to `target` (epoch ms) in one jump.
    static func advanceClock(_ fixture: SessionFixture, to target: Int) throws {
        let now = try #require(fixture.control("GET", "/_imock/clock").body["nowMs"]?.int)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":\#(target - now)}"#).status == 200)
    }

    @Test("GET …/sdk/users/{user}/token/expires answers the expiry and renews the user's msync sessions; the journal and sessions name the dialect")
    func restRenewal() async throws {
        let fixture = try SessionFixture(clock: .virtual)
        let short = try fixture.userToken("carol", ttl: 100)
        let (carol, reply) = try await MsyncTestDevice.login(fixture, user: "carol", token: short, resource: "webim_c")
        let expiresIn = try #require(MsyncProvision.expiresAt(replyAuthToken: reply.authToken))
        let long = try fixture.userToken("carol", ttl: 1000, register: false)
        let answer = try fixture.http.request("GET", "/acme/chat/sdk/users/carol/token/expires", token: long)
        #expect(answer.status == 200)
        let renewedExpiry = try #require(answer.body["expire_timestamp"]?.int)
        #expect(renewedExpiry == expiresIn + 900_000)
        let sessions = try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array ?? []
        #expect(sessions.first?["tokenExpiresAtMs"]?.int == renewedExpiry)
        #expect(sessions.first?["dialect"]?.string == "msync")
        // The old expiry passes without a close; the warning is the server time, the expiry a time past it.
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":850000}"#).status == 200)
        let warning = try await carol.next(.unread, as: MsyncPB.CommUnreadDL.self)
        #expect(Int(warning.timestamp ?? 0) < renewedExpiry)
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":200000}"#).status == 200)
        let expiry = try await carol.next(.unread, as: MsyncPB.CommUnreadDL.self)
        #expect(Int(expiry.timestamp ?? 0) >= renewedExpiry)
        #expect(await carol.socket.next() == .closed(code: 4108, reason: "the token has expired"))
        let journal = try fixture.journal()
        #expect(journal.allSatisfy { $0["dialect"]?.string == "msync" }, "\(journal)")
        #expect(try fixture.journalEvents() == ["login.ok", "token.willExpire", "token.expired", "closed:4108"])
        await fixture.stop()
    }

    @Test("the renewal endpoint's errors: no token 401, another user's token 401, a bad token 401")
    func restRenewalErrors() async throws {
        let fixture = try SessionFixture()
        let token = try fixture.userToken("dave")
        let other = try fixture.userToken("erin")
        #expect(try fixture.http.request("GET", "/acme/chat/sdk/users/dave/token/expires").status == 401)
        #expect(try fixture.http.request("GET", "/acme/chat/sdk/users/dave/token/expires", token: other).status == 401)
        #expect(try fixture.http.request("GET", "/acme/chat/sdk/users/dave/token/expires", token: "YWMtbogus").status == 401)
        #expect(try fixture.http.request("GET", "/acme/chat/sdk/users/dave/token/expires", token: token).status == 200)
        #expect(try fixture.http.request("GET", "/nope/app/sdk/users/dave/token/expires", token: token).status == 404)
        await fixture.stop()
    }

    @Test("control API: a kick with a code the SDK has no operation for is a PROVISION failure; drop and noPong faults apply")
    func controlAndFaults() async throws {
        let fixture = try SessionFixture()
        let token = try fixture.userToken("frank")
        let (frank, _) = try await MsyncTestDevice.login(fixture, user: "frank", token: token, resource: "webim_f")
        let kick = try fixture.control("POST", "/_imock/apps/acme/chat/kick", json: #"{"user":"frank","code":214}"#)
        #expect(kick.status == 200)
        let failure = try await frank.next(.provision, as: MsyncPB.Provision.self)
        #expect(failure.status?.errorCode == .tooManyDevices)
        #expect(await frank.socket.next() == .closed(code: 4214, reason: "kicked by the control API"))

        let (again, _) = try await MsyncTestDevice.login(fixture, user: "frank", token: token, resource: "webim_f")
        let noPong = try fixture.control("POST", "/_imock/faults", json: #"{"kind":"noPong","app":"acme#chat","user":"frank"}"#)
        #expect(noPong.status == 200)
        again.send(.unread, MsyncPB.CommUnreadUL())
        #expect(await again.socket.next(limit: .milliseconds(300)) == .timedOut, "the heartbeat answer is a pong")
        let drop = try fixture.control("POST", "/_imock/faults", json: #"{"kind":"drop","app":"acme#chat","user":"frank"}"#)
        #expect(drop.status == 200)
        guard case .closed(let code, _)? = await again.socket.next() else { Issue.record("not dropped"); return }
        #expect(code == 1006)
        await fixture.stop()
    }

    @Test("holdLogin holds the PROVISION answer; a black hole holds everything until it is cleared, then it flows in order")
    func holdingFaults() async throws {
        let fixture = try SessionFixture()
        let token = try fixture.userToken("hank")
        let hold = try fixture.control("POST", "/_imock/faults", json: #"{"kind":"holdLogin","app":"acme#chat","user":"hank","ms":300}"#)
        #expect(hold.status == 200)
        let (hank, reply) = try await MsyncTestDevice.login(fixture, user: "hank", token: token, resource: "webim_h")
        #expect(reply.status == MsyncPB.Status(), "the answer came, after the hold")
        #expect(try fixture.control("DELETE", "/_imock/faults").status == 200)
        let hole = try fixture.control("POST", "/_imock/faults", json: #"{"kind":"blackhole","app":"acme#chat","user":"hank"}"#)
        #expect(hole.status == 200)
        hank.send(.unread, MsyncPB.CommUnreadUL())
        #expect(await hank.socket.next(limit: .milliseconds(300)) == .timedOut, "nothing in a black hole")
        #expect(try fixture.control("DELETE", "/_imock/faults").status == 200)
        #expect(try await hank.next(.unread, as: MsyncPB.CommUnreadDL.self).status == MsyncPB.Status())
        await fixture.stop()
    }

    @Test("a silent msync connection outlives a shorter --session-idle-timeout (the SDK's heartbeat comes every 30–60 s); an imock one does not")
    func idleTimeout() async throws {
        #expect(MsyncDialect().minimumIdleTimeout == .seconds(90))
        let fixture = try SessionFixture(clock: .virtual, sessionIdleTimeout: .seconds(1))
        let token = try fixture.userToken("quiet")
        let (msync, _) = try await MsyncTestDevice.login(fixture, user: "quiet", token: token, resource: "webim_q")
        let imock = try await fixture.device("quiet", token: token, os: "ios", uuid: "json")
        #expect(try fixture.control("POST", "/_imock/clock/resume").status == 200)
        let closed = await imock.next(op: "<closed>")
        #expect(closed["code"]?.int == 1001, "\(closed)")
        #expect(await msync.socket.next(limit: .milliseconds(500)) == .timedOut, "still open, nothing sent")
        #expect(try await msync.unread().status == MsyncPB.Status())
        await fixture.stop()
    }

    @Test("REST force-logout is a STATISTIC kick 217 on msync; password change 216; user deletion 207")
    func restKicks() async throws {
        let fixture = try SessionFixture()
        let appToken = try await fixture.appToken()
        for (user, method, path, body, operation) in [
            ("gina", "GET", "/acme/chat/users/gina/disconnect", nil, MsyncPB.StatisticsBody.Operation.userKickedByOtherDevice),
            ("hank", "PUT", "/acme/chat/users/hank/password", #"{"newpassword":"x2"}"#, .userKickedByChangePassword),
            ("iris", "DELETE", "/acme/chat/users/iris", nil, .userRemoved),
        ] as [(String, String, String, String?, MsyncPB.StatisticsBody.Operation)] {
            let token = try fixture.userToken(user)
            let (device, _) = try await MsyncTestDevice.login(fixture, user: user, token: token, resource: "webim_\(user)")
            #expect(try fixture.http.request(method, path, json: body, token: appToken).status == 200)
            let page = try await device.next(.sync, as: MsyncPB.CommSyncDL.self)
            let statistic = try #require(page.metas.first).decodePayload(as: MsyncPB.StatisticsBody.self)
            #expect(statistic.operation == operation, "\(user)")
            guard case .closed? = await device.socket.next() else { Issue.record("no close for \(user)"); return }
        }
        await fixture.stop()
    }
}
