import IMockCommon
import Testing

@testable import IMockCore
import IMockWire

/// How the imock JSON dialect says a session end (the ends themselves: IMockCoreTests'
/// ServerKickTests and MessagingTests).
@Suite("imock JSON: session ends as frames and closes")
struct SessionEndFrameTests {
    /// Alice on connection 1, Bob on 2.
    static func loggedIn() throws -> SessionHarness {
        var h = try SessionHarness()
        for (connection, user) in [(1, "alice"), (2, "bob")] { _ = try h.login(UInt64(connection), user, uuid: "\(user.prefix(1))1") }
        return h
    }

    @Test("a kick of any code is a kicked frame (naming the new device if any), then close 4000 + code", arguments: [8, 202, 206, 214, 220])
    func kickOfAnyCode(code: Int) {
        var dialect = ImockJSONDialect()
        let by = code == 206 || code == 220 ? KickedBy(deviceName: "Tab", extensionInfo: "x") : nil
        let end = SessionEnd(cause: .kicked(code: code, by: by), reason: "test", subject: JournalSubject(connection: ConnectionID(1)))
        let (messages, close) = dialect.encode(end: end)
        #expect(messages == [.text(ServerFrame.kicked(code: code, reason: "test", by: by).text)])
        #expect(close.code == UInt16(4000 + code) && close.reason == "test")
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

    @Test(arguments: [false, true])
    func logoutRepliesThenCloses1000(unbind: Bool) throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice")
        let effects = h.frame(1, #"{"op":"logout","id":"o","unbindDeviceToken":\#(unbind)}"#)
        #expect(wire(effects) == [
            .send(ConnectionID(1), .logoutOK(id: "o")), .close(ConnectionID(1), closeCode: 1000, reason: "logout"),
        ])
        #expect(h.engine.sessions(of: "alice", in: h.app).isEmpty)
        #expect(h.pendingTimers == 0)
    }

    static let refusals: [(SessionError, Int)] = [
        (.unknownAppKey, 100), (.invalidUsername, 101), (.tokenMalformed, 104), (.tokenRevoked, 104), (.invalidToken, 104),
        (.tokenExpired, 108), (.tokenForAnotherUser, 202), (.deviceRefused(.boundToAnotherDevice), 213),
        (.userDeactivated, 305), (.serviceDisabled, 305), (.activeUserLimitReached, 8),
    ]

    @Test("a refused login is login.error with its Easemob code, then close 4000 + code", arguments: refusals)
    func loginRefusal(error: SessionError, code: Int) {
        var dialect = ImockJSONDialect()
        let end = SessionEnd(cause: .loginRefused(RequestTag("L"), error), reason: error.message, subject: JournalSubject(connection: ConnectionID(1)))
        let (messages, close) = dialect.encode(end: end)
        #expect(messages == [.text(ServerFrame.loginError(id: "L", code: code, message: error.message).text)])
        #expect(close.code == UInt16(4000 + code))
    }

    /// A replaced session is told as a kicked one (206, close 4206: after a silent 1000 a client
    /// reconnects, and two instances of one device would replace each other forever), naming
    /// no device; OpenIM's kick 2002 closes with 4999, where application close codes end.
    @Test func replacedAndOpenIMKicksCloseAsKicks() {
        var dialect = ImockJSONDialect()
        let subject = JournalSubject(connection: ConnectionID(1))
        let replaced = dialect.encode(end: SessionEnd(cause: .replaced, reason: "replaced", subject: subject))
        #expect(replaced.messages == [.text(ServerFrame.kicked(code: 206, reason: "replaced", by: nil).text)])
        #expect(replaced.close.code == 4206)
        let openIM = dialect.encode(end: SessionEnd(cause: .kicked(code: 2002, by: nil), reason: "kicked", subject: subject))
        #expect(openIM.messages == [.text(ServerFrame.kicked(code: 2002, reason: "kicked", by: nil).text)])
        #expect(openIM.close.code == 4999)
    }
}
