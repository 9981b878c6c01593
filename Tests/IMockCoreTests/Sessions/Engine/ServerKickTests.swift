import IMockCommon
import IMockTestSupport
import Testing

@testable import IMockCore

@Suite("Session engine: kicks from REST and state changes")
struct ServerKickTests {
    /// Alice on connections 1 and 2, Bob on 3.
    static func loggedIn() throws -> EngineHarness {
        var h = try EngineHarness()
        _ = try h.login(1, "alice", uuid: "a1")
        _ = try h.login(2, "alice", platform: .easemob(.android), uuid: "a2")
        _ = try h.login(3, "bob", uuid: "b1")
        return h
    }

    /// Each connection's session, and nothing else, ends with a kick of `code`.
    func expectKicked(_ outputs: [SessionOutput], connections: [UInt64], code: Int, reason: String) {
        let ended = ends(outputs)
        #expect(ended.map(\.connection) == connections.map { ConnectionID($0) })
        #expect(ended.allSatisfy { $0.end.cause == .kicked(code: code, by: nil) && $0.end.reason == reason })
        #expect(outputs.allSatisfy { if case .reply = $0 { false } else if case .push = $0 { false } else { true } })
    }

    @Test func passwordChangeKicksEveryDeviceWith216() throws {
        var h = try Self.loggedIn()
        try h.directory.changePassword("alice", to: "new-secret", in: h.app, nowMs: h.nowMs)
        let outputs = h.apply(h.engine.passwordChanged(app: h.app, user: "alice", nowMs: h.nowMs))
        expectKicked(outputs, connections: [1, 2], code: 216, reason: "the password was changed")
        #expect(h.engine.sessions(of: "alice", in: h.app).isEmpty)
        #expect(h.engine.sessions(of: "bob", in: h.app).count == 1)
        // Both sessions' token timers are cancelled; only Bob's remain.
        #expect(h.pendingTimers == 1)
    }

    @Test func disconnectOneResourceKicksOnlyItWith217() throws {
        var h = try Self.loggedIn()
        let outputs = h.apply(h.engine.disconnect(app: h.app, user: "alice", resource: "android_a2", nowMs: h.nowMs))
        expectKicked(outputs, connections: [2], code: 217, reason: "forced offline by the server")
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.device.resource) == ["ios_a1"])
    }

    @Test func disconnectAllKicksEveryDeviceWith217() throws {
        var h = try Self.loggedIn()
        let outputs = h.apply(h.engine.disconnect(app: h.app, user: "alice", resource: nil, nowMs: h.nowMs))
        expectKicked(outputs, connections: [1, 2], code: 217, reason: "forced offline by the server")
    }

    @Test func disconnectOfAnUnknownResourceDoesNothing() throws {
        var h = try Self.loggedIn()
        #expect(h.engine.disconnect(app: h.app, user: "alice", resource: "nope", nowMs: h.nowMs).isEmpty)
        #expect(h.engine.disconnect(app: h.app, user: "bad user", resource: nil, nowMs: h.nowMs).isEmpty)
    }

    @Test func userDeletionKicksWith207AndDropsTheQueue() throws {
        var h = try Self.loggedIn()
        h.close(3)
        h.handle(1, .send(RequestTag("s"), to: "bob", text: "hi"))
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).count == 1)
        _ = try h.login(4, "bob")
        _ = h.apply(h.engine.userDeleted(app: h.app, user: "bob", nowMs: h.nowMs))
        // Bob's login above delivered the queued message; deleting him drops it.
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).isEmpty)
        let outputs = h.apply(h.engine.userDeleted(app: h.app, user: "alice", nowMs: h.nowMs))
        expectKicked(outputs, connections: [1, 2], code: 207, reason: "the user was removed")
    }

    @Test func deactivationKicksWith305AndLaterLoginsAreRefused() throws {
        var h = try Self.loggedIn()
        let token = try h.token("alice")
        try h.directory.setActivated(false, user: "alice", in: h.app, nowMs: h.nowMs)
        let outputs = h.apply(h.engine.userDeactivated(app: h.app, user: "alice", nowMs: h.nowMs))
        expectKicked(outputs, connections: [1, 2], code: 305, reason: "the user is deactivated")
        #expect(ends(try h.login(5, "alice", token: token)).map(\.end.cause) == [.loginRefused(RequestTag("L"), .userDeactivated)])
        try h.directory.setActivated(true, user: "alice", in: h.app, nowMs: h.nowMs)
        guard case .loginAccepted? = replies(try h.login(6, "alice", token: token), to: 6).first else {
            Issue.record("no login accepted after activation"); return
        }
    }

    @Test func disabledAppKicksEverySessionWith305() throws {
        var h = try Self.loggedIn()
        var settings = try h.directory.app(h.app).settings
        settings.serviceEnabled = false
        try h.directory.updateSettings(settings, of: h.app)
        let outputs = h.apply(h.engine.appServiceDisabled(app: h.app, nowMs: h.nowMs))
        expectKicked(outputs, connections: [1, 2, 3], code: 305, reason: "the app service is disabled")
        #expect(h.engine.sessions(in: h.app).isEmpty)
        #expect(h.pendingTimers == 0)
        #expect(ends(try h.login(4, "carol")).map(\.end.cause) == [.loginRefused(RequestTag("L"), .serviceDisabled)])
    }

    @Test(arguments: [8, 202, 206, 214, 220])
    func controlKickEndsWithAnyCode(code: Int) throws {
        var h = try Self.loggedIn()
        let by = code == 206 || code == 220 ? KickedBy(deviceName: "Tab", extensionInfo: "x") : nil
        let outputs = h.apply(
            h.engine.kick(app: h.app, user: "alice", resource: "ios_a1", code: code, reason: "test", by: by, nowMs: h.nowMs))
        #expect(ends(outputs).map(\.connection) == [ConnectionID(1)])
        #expect(ends(outputs).map(\.end.cause) == [.kicked(code: code, by: by)])
    }

    @Test func kicksAreJournalledWithTimeAndTarget() throws {
        var h = try Self.loggedIn()
        let outputs = h.apply(h.engine.disconnect(app: h.app, user: "alice", resource: "ios_a1", nowMs: h.nowMs))
        let entries = outputs.compactMap { output -> JournalEntry? in
            if case .journal(let entry) = output { return entry }
            return nil
        }
        let subject = JournalSubject(connection: ConnectionID(1), app: h.app, user: "alice", resource: "ios_a1")
        #expect(entries == [
            JournalEntry(atMs: h.nowMs, subject: subject, event: .kicked(code: 217, reason: "forced offline by the server", by: nil))
        ])
    }

    @Test func commandsAfterAKickAreIgnoredAndTheShellCloseIsHarmless() throws {
        var h = try Self.loggedIn()
        _ = h.apply(h.engine.disconnect(app: h.app, user: "alice", resource: "ios_a1", nowMs: h.nowMs))
        #expect(h.handle(1, .devices(RequestTag("d"))).isEmpty)
        #expect(h.close(1).isEmpty)
        #expect(h.engine.connectionCount == 2)
    }
}
