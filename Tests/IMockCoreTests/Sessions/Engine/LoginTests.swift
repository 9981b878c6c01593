import IMockCommon
import IMockTestSupport
import Testing

@testable import IMockCore

@Suite("Session engine: login")
struct LoginTests {
    @Test func successAcceptsWithResourceExpiryAndServerTime() throws {
        var h = try EngineHarness()
        let outputs = try h.login(1, "alice", uuid: "u1")
        let expiresAt = h.nowMs + 3_600_000
        #expect(replies(outputs, to: 1) == [.loginAccepted(resource: "ios_u1", tokenExpiresAt: expiresAt, serverTime: h.nowMs)])
        let sessions = h.engine.sessions(of: "ALICE", in: h.app)
        #expect(sessions.map(\.device.resource) == ["ios_u1"])
        #expect(sessions.first?.tokenExpiresAtMs == expiresAt)
        #expect(h.engine.activeUserCount(in: h.app) == 1)
    }

    @Test func aChosenResourceIsKept() throws {
        var h = try EngineHarness()
        let outputs = try h.login(1, "alice", resource: "web_tab1")
        guard case .loginAccepted(let resource, _, _)? = replies(outputs, to: 1).first else {
            Issue.record("no login accepted"); return
        }
        #expect(resource == "web_tab1")
    }

    /// Asserts the exact refusal: the session's end with `error`, journalled, and nothing else
    /// said to the connection.
    func expectRefusal(_ outputs: [SessionOutput], _ error: SessionError, on connection: UInt64 = 1) {
        #expect(ends(outputs).map(\.connection) == [ConnectionID(connection)])
        #expect(ends(outputs).map(\.end.cause) == [.loginRefused(RequestTag("L"), error)])
        #expect(ends(outputs).map(\.end.reason) == [error.message])
        #expect(replies(outputs, to: connection).isEmpty && pushes(outputs, to: connection).isEmpty)
        let journalled = outputs.compactMap { output -> JournalEvent? in
            if case .journal(let entry) = output { return entry.event }
            return nil
        }
        #expect(journalled == [.loginRefused(RequestTag("L"), error)])
    }

    @Test func unknownAppIsRefused() throws {
        var h = try EngineHarness()
        h.open(1)
        let request = LoginRequest(
            appKey: "acme#nope", user: "alice", token: "t", device: DeviceDescription(platform: .easemob(.ios), uuid: "u"))
        expectRefusal(h.handle(1, .login(RequestTag("L"), request)), .unknownAppKey)
        // The connection is closing: further commands are ignored.
        #expect(h.handle(1, .ping(nil)).isEmpty)
    }

    @Test func malformedTokenIsRefused() throws {
        var h = try EngineHarness()
        expectRefusal(try h.login(1, "alice", token: "garbage"), .tokenMalformed)
    }

    @Test func revokedTokenIsRefused() throws {
        var h = try EngineHarness()
        let token = try h.token("alice")
        try h.directory.revokeAllTokens(of: "alice", in: h.app)
        expectRefusal(try h.login(1, "alice", token: token), .tokenRevoked)
    }

    @Test func tokenOfAnotherAppIsRefused() throws {
        var h = try EngineHarness()
        let other = try AppKey(parsing: "acme#other")
        try h.directory.createApp(other)
        try h.directory.registerUser(NewUser(username: "alice", password: "pw"), in: other, nowMs: h.nowMs)
        let foreign = try h.directory.issueInheritedUserToken(
            in: other, username: "alice", autoCreateUser: false, ttlSeconds: 60, nowMs: h.nowMs
        ).token.token
        expectRefusal(try h.login(1, "alice", token: foreign), .invalidToken)
    }

    @Test func expiredTokenIsRefused() throws {
        var h = try EngineHarness()
        let token = try h.token("alice", ttl: 10)
        try h.clock.advance(by: 10_000)
        expectRefusal(try h.login(1, "alice", token: token), .tokenExpired)
    }

    @Test func tokenOfAnotherUserIsRefused() throws {
        var h = try EngineHarness()
        let bobs = try h.token("bob")
        expectRefusal(try h.login(1, "alice", token: bobs), .tokenForAnotherUser)
    }

    @Test func appTokenIsRefused() throws {
        var h = try EngineHarness()
        let app = try h.directory.app(h.app)
        let token = try h.directory.issueAppToken(
            in: h.app, clientID: app.clientID, clientSecret: app.clientSecret, ttlSeconds: 60, nowMs: h.nowMs
        ).token
        expectRefusal(try h.login(1, "alice", token: token), .tokenForAnotherUser)
    }

    @Test func invalidUsernameIsRefused() throws {
        var h = try EngineHarness()
        expectRefusal(try h.login(1, "al ice", token: "t"), .invalidUsername)
    }

    @Test func deactivatedUserIsRefused() throws {
        var h = try EngineHarness()
        let token = try h.token("alice")
        try h.directory.setActivated(false, user: "alice", in: h.app, nowMs: h.nowMs)
        expectRefusal(try h.login(1, "alice", token: token), .userDeactivated)
    }

    @Test func disabledAppIsRefused() throws {
        var h = try EngineHarness(settings: AppSettings(serviceEnabled: false))
        expectRefusal(try h.login(1, "alice"), .serviceDisabled)
    }

    @Test func activeUserLimitRefusesNewUsers() throws {
        var h = try EngineHarness(settings: AppSettings(activeUserLimit: 1))
        _ = try h.login(1, "alice")
        h.close(1)
        // Alice is already counted, so she logs in again; Bob would be the second active user.
        #expect(replies(try h.login(2, "alice"), to: 2).count == 1)
        expectRefusal(try h.login(3, "bob"), .activeUserLimitReached, on: 3)
        h.engine.resetActiveUsers(in: h.app)
        #expect(h.engine.activeUserCount(in: h.app) == 0)
    }

    @Test func secondLoginOnTheSameConnectionIsRefused() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice")
        let outputs = try h.login(1, "alice", tag: "L2")
        #expect(outputs == [.reply(ConnectionID(1), RequestTag("L2"), .refused(.alreadyLoggedIn, field: nil))])
        #expect(h.engine.sessions(of: "alice", in: h.app).count == 1)
    }

    @Test func requestsBeforeLoginAreRefusedButPingIsAnswered() throws {
        var h = try EngineHarness()
        h.open(1)
        #expect(h.handle(1, .ping(RequestTag("p"))) == [.reply(ConnectionID(1), RequestTag("p"), .pong(serverTime: h.nowMs))])
        #expect(h.handle(1, .devices(RequestTag("d"))) == [.reply(ConnectionID(1), RequestTag("d"), .refused(.notLoggedIn, field: nil))])
    }

    /// The old connection's session ends as replaced (its dialect tells it as a kick, so that it
    /// does not reconnect), but it is no policy kick: nothing names the new device, nothing is
    /// journalled as a kick.
    @Test func sameDeviceReconnectReplacesItsSession() throws {
        var h = try EngineHarness()
        let token = try h.token("alice")
        _ = try h.login(1, "alice", token: token, uuid: "phone")
        let outputs = try h.login(2, "alice", token: token, uuid: "phone", autoLogin: true)
        #expect(ends(outputs).map(\.connection) == [ConnectionID(1)])
        #expect(ends(outputs).map(\.end.cause) == [.replaced])
        let journalled = outputs.compactMap { output -> JournalEvent? in
            if case .journal(let entry) = output { return entry.event }
            return nil
        }
        #expect(!journalled.contains { if case .kicked = $0 { true } else { false } }, "\(journalled)")
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.connection) == [ConnectionID(2)])
        // The old connection's timers were cancelled, the new ones scheduled.
        #expect(h.pendingTimers == 1)
    }

    @Test func otherDevicesAreAllAcceptedByTheDefaultDecider() throws {
        var h = try EngineHarness()
        var outputs: [SessionOutput] = []
        for connection in 1...5 { outputs += try h.login(UInt64(connection), "alice") }
        #expect(h.engine.sessions(of: "alice", in: h.app).count == 5)
        #expect(ends(outputs).isEmpty)
    }

    @Test func policyKicksEndTheOldSessionWith206NamingTheNewDevice() throws {
        let policy = LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.newKicksOld)))
        var h = try EngineHarness(decider: PolicyLoginDecider(policy: policy))
        _ = try h.login(1, "alice", uuid: "old")
        let outputs = try h.login(2, "alice", platform: .easemob(.android), uuid: "new", name: "Pixel", extensionInfo: "hello")
        #expect(ends(outputs).map(\.connection) == [ConnectionID(1)])
        #expect(ends(outputs).map(\.end.cause) == [.kicked(code: 206, by: KickedBy(deviceName: "Pixel", extensionInfo: "hello"))])
        #expect(ends(outputs).map(\.end.reason) == ["logged in on another device"])
        #expect(replies(outputs, to: 2) == [
            .loginAccepted(resource: "android_new", tokenExpiresAt: h.nowMs + 3_600_000, serverTime: h.nowMs)
        ])
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.device.uuid) == ["new"])
    }

    @Test func policyRefusalEndsTheNewLogin() throws {
        let policy = LoginPolicy.easemob(EasemobLoginPolicy(mode: .singleDevice(.firstDeviceWins)))
        var h = try EngineHarness(decider: PolicyLoginDecider(policy: policy))
        _ = try h.login(1, "alice", uuid: "first")
        expectRefusal(try h.login(2, "alice", uuid: "second"), .deviceRefused(.boundToAnotherDevice), on: 2)
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.device.uuid) == ["first"])
    }

    @Test func openIMKickRevokesTheKickedToken() throws {
        let policy = LoginPolicy.openIM(.allLoginButSameTermKick)
        var h = try EngineHarness(decider: PolicyLoginDecider(policy: policy))
        let first = try h.token("alice")
        _ = try h.login(1, "alice", token: first, platform: .openIM(.ios), uuid: "a")
        let outputs = try h.login(2, "alice", platform: .openIM(.ios), uuid: "b")
        #expect(ends(outputs).map(\.connection) == [ConnectionID(1)])
        #expect(kickCodes(outputs) == [OpenIMKickCode.kickOnlineMessage.rawValue])
        #expect(throws: TokenError.kicked) { try h.directory.verifyToken(first, for: h.app, nowMs: h.nowMs) }
    }
}
