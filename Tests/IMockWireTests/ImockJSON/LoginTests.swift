import IMockCommon
import Testing

@testable import IMockCore
import IMockWire

@Suite("Session engine: login")
struct LoginTests {
    @Test func successSendsLoginOKWithResourceExpiryAndServerTime() throws {
        var h = try SessionHarness()
        let effects = try h.login(1, "alice", uuid: "u1")
        let expiresAt = h.nowMs + 3_600_000
        #expect(frames(effects, to: 1) == [.loginOK(id: "L", resource: "ios_u1", tokenExpiresAt: expiresAt, serverTime: h.nowMs)])
        #expect(frames(effects, to: 1).first?.text
            == #"{"op":"login.ok","id":"L","resource":"ios_u1","tokenExpiresAt":4600000,"serverTime":1000000}"#)
        let sessions = h.engine.sessions(of: "ALICE", in: h.app)
        #expect(sessions.map(\.device.resource) == ["ios_u1"])
        #expect(sessions.first?.tokenExpiresAtMs == expiresAt)
        #expect(h.engine.activeUserCount(in: h.app) == 1)
    }

    @Test func aChosenResourceIsKept() throws {
        var h = try SessionHarness()
        let effects = try h.login(1, "alice", resource: "web_tab1")
        guard case .loginOK(_, let resource, _, _)? = frames(effects, to: 1).first else {
            Issue.record("no login.ok"); return
        }
        #expect(resource == "web_tab1")
    }

    /// Asserts the exact refusal: `login.error` with `code`, then close 4000+code, journalled.
    func expectRefusal(_ effects: [SessionEffect], code: Int, message: String, on connection: UInt64 = 1) {
        let expectedFrame = ServerFrame.loginError(id: "L", code: code, message: message)
        #expect(wire(effects) == [
            .send(ConnectionID(connection), expectedFrame),
            .close(ConnectionID(connection), closeCode: UInt16(4000 + code), reason: message),
        ])
        let journalled = effects.compactMap { effect -> JournalLine.Event? in
            if case .journal(let entry) = effect { return entry.event }
            return nil
        }
        #expect(journalled == [.frame(expectedFrame), .closed(code: UInt16(4000 + code), reason: message)])
    }

    @Test func unknownAppIsRefusedWith100() throws {
        var h = try SessionHarness()
        h.open(1)
        let effects = h.frame(1, #"{"op":"login","id":"L","appKey":"acme#nope","user":"alice","token":"t","device":{"os":"ios","uuid":"u"}}"#)
        expectRefusal(effects, code: 100, message: "unknown app key")
        // The connection is closing: further frames are ignored.
        #expect(h.frame(1, #"{"op":"ping"}"#).isEmpty)
    }

    @Test func malformedTokenIsRefusedWith104() throws {
        var h = try SessionHarness()
        expectRefusal(try h.login(1, "alice", token: "garbage"), code: 104, message: "invalid token")
    }

    @Test func revokedTokenIsRefusedWith104() throws {
        var h = try SessionHarness()
        let token = try h.token("alice")
        try h.directory.revokeAllTokens(of: "alice", in: h.app)
        expectRefusal(try h.login(1, "alice", token: token), code: 104, message: "invalid token")
    }

    @Test func tokenOfAnotherAppIsRefusedWith104() throws {
        var h = try SessionHarness()
        let other = try AppKey(parsing: "acme#other")
        try h.directory.createApp(other)
        try h.directory.registerUser(NewUser(username: "alice", password: "pw"), in: other, nowMs: h.nowMs)
        let foreign = try h.directory.issueInheritedUserToken(
            in: other, username: "alice", autoCreateUser: false, ttlSeconds: 60, nowMs: h.nowMs
        ).token.token
        expectRefusal(try h.login(1, "alice", token: foreign), code: 104, message: "invalid token")
    }

    @Test func expiredTokenIsRefusedWith108() throws {
        var h = try SessionHarness()
        let token = try h.token("alice", ttl: 10)
        try h.clock.advance(by: 10_000)
        expectRefusal(try h.login(1, "alice", token: token), code: 108, message: "the token has expired")
    }

    @Test func tokenOfAnotherUserIsRefusedWith202() throws {
        var h = try SessionHarness()
        let bobs = try h.token("bob")
        expectRefusal(try h.login(1, "alice", token: bobs), code: 202, message: "the token does not authenticate this user")
    }

    @Test func appTokenIsRefusedWith202() throws {
        var h = try SessionHarness()
        let app = try h.directory.app(h.app)
        let token = try h.directory.issueAppToken(
            in: h.app, clientID: app.clientID, clientSecret: app.clientSecret, ttlSeconds: 60, nowMs: h.nowMs
        ).token
        expectRefusal(try h.login(1, "alice", token: token), code: 202, message: "the token does not authenticate this user")
    }

    @Test func invalidUsernameIsRefusedWith101() throws {
        var h = try SessionHarness()
        expectRefusal(try h.login(1, "al ice", token: "t"), code: 101, message: "invalid username")
    }

    @Test func deactivatedUserIsRefusedWith305() throws {
        var h = try SessionHarness()
        let token = try h.token("alice")
        try h.directory.setActivated(false, user: "alice", in: h.app, nowMs: h.nowMs)
        expectRefusal(try h.login(1, "alice", token: token), code: 305, message: "the user is deactivated")
    }

    @Test func disabledAppIsRefusedWith305() throws {
        var h = try SessionHarness(settings: AppSettings(serviceEnabled: false))
        expectRefusal(try h.login(1, "alice"), code: 305, message: "the app service is disabled")
    }

    @Test func activeUserLimitRefusesNewUsersWith8() throws {
        var h = try SessionHarness(settings: AppSettings(activeUserLimit: 1))
        _ = try h.login(1, "alice")
        h.close(1)
        // Alice is already counted, so she logs in again; Bob would be the second active user.
        #expect(frames(try h.login(2, "alice"), to: 2).count == 1)
        expectRefusal(try h.login(3, "bob"), code: 8, message: "the app's active user limit is reached", on: 3)
        h.engine.resetActiveUsers(in: h.app)
        #expect(h.engine.activeUserCount(in: h.app) == 0)
    }

    @Test func secondLoginOnTheSameConnectionIsAnError() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        let effects = try h.login(1, "alice", id: "L2")
        #expect(effects == [.send(ConnectionID(1), .error(id: "L2", code: 200, message: "this connection is already logged in", field: nil))])
        #expect(h.engine.sessions(of: "alice", in: h.app).count == 1)
    }

    @Test func requestsBeforeLoginAreRefusedWith201ButPingIsAnswered() throws {
        var h = try SessionHarness()
        h.open(1)
        #expect(h.frame(1, #"{"op":"ping","id":"p"}"#) == [.send(ConnectionID(1), .pong(id: "p", serverTime: h.nowMs))])
        #expect(h.frame(1, #"{"op":"devices","id":"d"}"#)
            == [.send(ConnectionID(1), .error(id: "d", code: 201, message: "log in first", field: nil))])
    }

    @Test func malformedFramesGetAnErrorAndKeepTheConnection() throws {
        var h = try SessionHarness()
        h.open(1)
        #expect(h.frame(1, #"{"op":"dance","id":"x1"}"#)
            == [.send(ConnectionID(1), .error(id: "x1", code: 110, message: #"unknown op "dance""#, field: "op"))])
        #expect(h.frame(1, "not json")
            == [.send(ConnectionID(1), .error(id: nil, code: 110, message: "invalid JSON: unexpected character at byte 1", field: nil))])
        let bad = #"{"op":"login","id":"L","appKey":"acme#chat","user":"alice","token":"t","device":{"os":"ios","uuid":"u","extension":""#
            + String(repeating: "x", count: 1025) + #""}}"#
        #expect(frames(h.frame(1, bad), to: 1) == [.error(
            id: "L", code: 110, message: "field device.extension is 1025 characters long; at most 1024 allowed",
            field: "device.extension")])
        // Still open and not logged in: a good login now works.
        guard case .loginOK? = frames(try h.login(1, "alice"), to: 1).first else { Issue.record("no login.ok"); return }
    }

    /// The old connection is told as a kicked one is (206, close 4206: after a silent 1000 a
    /// client reconnects, and two instances of one device replace each other forever), but it
    /// is no policy kick: nothing names the new device, nothing is journalled as a kick.
    @Test func sameDeviceReconnectReplacesItsSessionAndTellsTheOldOne() throws {
        var h = try SessionHarness()
        let token = try h.token("alice")
        _ = try h.login(1, "alice", token: token, uuid: "phone")
        let effects = try h.login(2, "alice", token: token, uuid: "phone", autoLogin: true)
        #expect(frames(effects, to: 1) == [.kicked(code: 206, reason: "replaced by a new connection of the same device", by: nil)])
        let journalled = effects.compactMap { effect -> JournalLine.Event? in
            if case .journal(let entry) = effect { return entry.event }
            return nil
        }
        #expect(!journalled.contains { if case .frame(.kicked) = $0 { true } else { false } }, "\(journalled)")
        #expect(closes(effects).map(\.1) == [4206])
        #expect(closes(effects).map(\.0) == [ConnectionID(1)])
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.connection) == [ConnectionID(2)])
        // The old connection's timers were cancelled, the new ones scheduled.
        #expect(h.pendingTimers == 1)
    }

    @Test func otherDevicesAreAllAcceptedByTheDefaultDecider() throws {
        var h = try SessionHarness()
        for connection in 1...5 { _ = try h.login(UInt64(connection), "alice") }
        #expect(h.engine.sessions(of: "alice", in: h.app).count == 5)
        #expect(closes(h.log).isEmpty)
    }

    @Test func policyKicksSend206WithTheNewDeviceThenClose4206() throws {
        let policy = LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld)))
        var h = try SessionHarness(decider: PolicyLoginDecider(policy: policy))
        _ = try h.login(1, "alice", uuid: "old")
        let effects = try h.login(2, "alice", os: "android", uuid: "new", name: "Pixel", extensionInfo: "hello")
        let kicked = ServerFrame.kicked(
            code: 206, reason: "logged in on another device", by: KickedBy(deviceName: "Pixel", extensionInfo: "hello"))
        #expect(Array(wire(effects).prefix(3)) == [
            .send(ConnectionID(1), kicked),
            .close(ConnectionID(1), closeCode: 4206, reason: "logged in on another device"),
            .send(ConnectionID(2), .loginOK(id: "L", resource: "android_new", tokenExpiresAt: h.nowMs + 3_600_000, serverTime: h.nowMs)),
        ])
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.device.uuid) == ["new"])
    }

    @Test func policyRefusalClosesWithItsCode() throws {
        let policy = LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins)))
        var h = try SessionHarness(decider: PolicyLoginDecider(policy: policy))
        _ = try h.login(1, "alice", uuid: "first")
        expectRefusalOn2(try h.login(2, "alice", uuid: "second"), code: 213)
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.device.uuid) == ["first"])
    }

    func expectRefusalOn2(_ effects: [SessionEffect], code: Int) {
        #expect(frames(effects, to: 2).map(\.code) == [code])
        #expect(closes(effects).map(\.1) == [UInt16(4000 + code)])
    }

    @Test func openIMKickRevokesTheKickedToken() throws {
        let policy = LoginPolicy.openIM(.allLoginButSameTermKick)
        var h = try SessionHarness(decider: PolicyLoginDecider(policy: policy))
        h.open(1)
        let first = try h.token("alice")
        let login = { (uuid: String, token: String) in
            #"{"op":"login","id":"L","appKey":"acme#chat","user":"alice","token":""# + token
                + #"","device":{"platformId":1,"uuid":""# + uuid + #""}}"#
        }
        _ = h.frame(1, login("a", first))
        h.open(2)
        let effects = h.frame(2, login("b", try h.token("alice")))
        #expect(frames(effects, to: 1).map(\.code) == [2002])
        #expect(closes(effects).first?.1 == 4999)
        #expect(throws: TokenError.kicked) { try h.directory.verifyToken(first, for: h.app, nowMs: h.nowMs) }
    }
}
