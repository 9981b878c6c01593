import IMockCommon
import Testing

@testable import IMockCore
import IMockWire

@Suite("Session engine: kicks from REST and state changes")
struct ServerKickTests {
    /// Alice on connections 1 and 2, Bob on 3.
    static func loggedIn() throws -> SessionHarness {
        var h = try SessionHarness()
        _ = try h.login(1, "alice", uuid: "a1")
        _ = try h.login(2, "alice", os: "android", uuid: "a2")
        _ = try h.login(3, "bob", uuid: "b1")
        return h
    }

    /// Each connection gets exactly: `kicked` with `code`, then close 4000+code.
    func expectKicked(_ effects: [SessionEffect], connections: [UInt64], code: Int, reason: String) {
        let expected: [SessionEffect] = connections.flatMap { connection -> [SessionEffect] in
            [
                .send(ConnectionID(connection), .kicked(code: code, reason: reason, by: nil)),
                .close(ConnectionID(connection), closeCode: UInt16(4000 + code), reason: reason),
            ]
        }
        #expect(wire(effects) == expected)
    }

    @Test func passwordChangeKicksEveryDeviceWith216() throws {
        var h = try Self.loggedIn()
        try h.directory.changePassword("alice", to: "new-secret", in: h.app, nowMs: h.nowMs)
        let effects = h.apply(h.engine.passwordChanged(app: h.app, user: "alice", nowMs: h.nowMs))
        expectKicked(effects, connections: [1, 2], code: 216, reason: "the password was changed")
        #expect(h.engine.sessions(of: "alice", in: h.app).isEmpty)
        #expect(h.engine.sessions(of: "bob", in: h.app).count == 1)
        // Both sessions' token timers are cancelled; only Bob's remain.
        #expect(h.pendingTimers == 1)
    }

    @Test func disconnectOneResourceKicksOnlyItWith217() throws {
        var h = try Self.loggedIn()
        let effects = h.apply(h.engine.disconnect(app: h.app, user: "alice", resource: "android_a2", nowMs: h.nowMs))
        expectKicked(effects, connections: [2], code: 217, reason: "forced offline by the server")
        #expect(h.engine.sessions(of: "alice", in: h.app).map(\.device.resource) == ["ios_a1"])
    }

    @Test func disconnectAllKicksEveryDeviceWith217() throws {
        var h = try Self.loggedIn()
        let effects = h.apply(h.engine.disconnect(app: h.app, user: "alice", resource: nil, nowMs: h.nowMs))
        expectKicked(effects, connections: [1, 2], code: 217, reason: "forced offline by the server")
    }

    @Test func disconnectOfAnUnknownResourceDoesNothing() throws {
        var h = try Self.loggedIn()
        #expect(h.engine.disconnect(app: h.app, user: "alice", resource: "nope", nowMs: h.nowMs).isEmpty)
        #expect(h.engine.disconnect(app: h.app, user: "bad user", resource: nil, nowMs: h.nowMs).isEmpty)
    }

    @Test func userDeletionKicksWith207AndDropsTheQueue() throws {
        var h = try Self.loggedIn()
        h.close(3)
        h.frame(1, #"{"op":"send","id":"s","to":"bob","text":"hi"}"#)
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).count == 1)
        _ = try h.login(4, "bob")
        _ = h.apply(h.engine.userDeleted(app: h.app, user: "bob", nowMs: h.nowMs))
        // Bob's login above delivered the queued message; deleting him drops it.
        #expect(h.engine.offlineMessages(of: "bob", in: h.app).isEmpty)
        let effects = h.apply(h.engine.userDeleted(app: h.app, user: "alice", nowMs: h.nowMs))
        expectKicked(effects, connections: [1, 2], code: 207, reason: "the user was removed")
    }

    @Test func deactivationKicksWith305AndLaterLoginsAreRefused() throws {
        var h = try Self.loggedIn()
        let token = try h.token("alice")
        try h.directory.setActivated(false, user: "alice", in: h.app, nowMs: h.nowMs)
        let effects = h.apply(h.engine.userDeactivated(app: h.app, user: "alice", nowMs: h.nowMs))
        expectKicked(effects, connections: [1, 2], code: 305, reason: "the user is deactivated")
        #expect(frames(try h.login(5, "alice", token: token), to: 5).map(\.code) == [305])
        try h.directory.setActivated(true, user: "alice", in: h.app, nowMs: h.nowMs)
        guard case .loginOK? = frames(try h.login(6, "alice", token: token), to: 6).first else {
            Issue.record("no login.ok after activation"); return
        }
    }

    @Test func disabledAppKicksEverySessionWith305() throws {
        var h = try Self.loggedIn()
        var settings = try h.directory.app(h.app).settings
        settings.serviceEnabled = false
        try h.directory.updateSettings(settings, of: h.app)
        let effects = h.apply(h.engine.appServiceDisabled(app: h.app, nowMs: h.nowMs))
        expectKicked(effects, connections: [1, 2, 3], code: 305, reason: "the app service is disabled")
        #expect(h.engine.sessions(in: h.app).isEmpty)
        #expect(h.pendingTimers == 0)
        #expect(frames(try h.login(4, "carol"), to: 4).map(\.code) == [305])
    }

    @Test(arguments: [8, 202, 206, 214, 220])
    func controlKickSendsAnyCode(code: Int) throws {
        var h = try Self.loggedIn()
        let by = code == 206 || code == 220 ? KickedBy(deviceName: "Tab", extensionInfo: "x") : nil
        let effects = h.apply(
            h.engine.kick(app: h.app, user: "alice", resource: "ios_a1", code: code, reason: "test", by: by, nowMs: h.nowMs))
        #expect(wire(effects) == [
            .send(ConnectionID(1), .kicked(code: code, reason: "test", by: by)),
            .close(ConnectionID(1), closeCode: UInt16(4000 + code), reason: "test"),
        ])
    }

    @Test func kicksAreJournalledWithTimeAndTarget() throws {
        var h = try Self.loggedIn()
        let effects = h.apply(h.engine.disconnect(app: h.app, user: "alice", resource: "ios_a1", nowMs: h.nowMs))
        let entries = effects.compactMap { effect -> JournalLine? in
            if case .journal(let entry) = effect { return entry }
            return nil
        }
        let reason = "forced offline by the server"
        let subject = JournalSubject(connection: ConnectionID(1), app: h.app, user: "alice", resource: "ios_a1")
        #expect(entries == [
            JournalLine(JournalEntry(atMs: h.nowMs, subject: subject, event: .kicked(code: 217, reason: reason, by: nil))),
            JournalLine(JournalEntry(atMs: h.nowMs, subject: subject, event: .closed(code: 4217, reason: reason))),
        ])
    }

    @Test func framesAfterAKickAreIgnoredAndTheShellCloseIsHarmless() throws {
        var h = try Self.loggedIn()
        _ = h.apply(h.engine.disconnect(app: h.app, user: "alice", resource: "ios_a1", nowMs: h.nowMs))
        #expect(h.frame(1, #"{"op":"devices","id":"d"}"#).isEmpty)
        #expect(h.close(1).isEmpty)
        #expect(h.engine.connectionCount == 2)
    }

    @Test func longCloseReasonsAreCutTo123Bytes() throws {
        var h = try Self.loggedIn()
        let reason = String(repeating: "é", count: 100)
        let effects = h.apply(h.engine.kick(app: h.app, user: "bob", resource: nil, code: 217, reason: reason, by: nil, nowMs: h.nowMs))
        let closeReason = effects.compactMap { effect -> String? in
            if case .close(_, _, let reason) = effect { return reason }
            return nil
        }.first
        #expect(closeReason == String(repeating: "é", count: 61))
    }
}
