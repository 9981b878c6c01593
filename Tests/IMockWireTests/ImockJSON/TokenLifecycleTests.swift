import IMockCommon
import Testing

@testable import IMockCore
import IMockWire

@Suite("Session engine: token lifecycle")
struct TokenLifecycleTests {
    @Test func loginSchedulesWillExpireAt80PercentAndExpiryAt100() throws {
        var h = try SessionHarness()
        let start = h.nowMs
        let effects = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        let wakes = effects.compactMap { effect -> Int64? in
            if case .wake(let atMs) = effect { return atMs }
            return nil
        }
        // One wake-up for the earliest; the warning waits in the engine's queue, the expiry
        // follows it there once it fired.
        #expect(wakes == [start + 80_000])
        #expect(h.pendingTimers == 1)
        _ = try h.advance(by: 80_000)
        #expect(h.engine.nextTokenTimerDeadlineMs == start + 100_000)
    }

    @Test func willExpireThenExpiredThenClose4108OnTheVirtualClock() throws {
        var h = try SessionHarness()
        let start = h.nowMs
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        #expect(try h.advance(by: 79_999).isEmpty)
        let warning = try h.advance(by: 1)
        #expect(wire(warning) == [.send(ConnectionID(1), .tokenWillExpire(expiresAt: start + 100_000))])
        #expect(try h.advance(by: 19_999).isEmpty)
        let expiry = try h.advance(by: 1)
        #expect(wire(expiry) == [
            .send(ConnectionID(1), .tokenExpired),
            .close(ConnectionID(1), closeCode: 4108, reason: "the token has expired"),
        ])
        let journal = expiry.compactMap { effect -> JournalLine.Event? in
            if case .journal(let entry) = effect { return entry.event }
            return nil
        }
        #expect(journal == [.frame(.tokenExpired), .closed(code: 4108, reason: "the token has expired")])
        #expect(h.engine.sessions(of: "alice", in: h.app).isEmpty)
        #expect(h.pendingTimers == 0)
    }

    @Test func warningPercentIsConfigurable() throws {
        var h = try SessionHarness(configuration: SessionEngineConfiguration(tokenWarningPercent: 50))
        let start = h.nowMs
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 10))
        #expect(try h.advance(by: 4_999).isEmpty)
        #expect(frames(try h.advance(by: 1), to: 1) == [.tokenWillExpire(expiresAt: start + 10_000)])
    }

    @Test func tokensThatNeverExpireScheduleNothing() throws {
        var h = try SessionHarness()
        let effects = try h.login(1, "alice", token: try h.token("alice", ttl: 0))
        #expect(frames(effects, to: 1) == [.loginOK(id: "L", resource: "ios_dev-1", tokenExpiresAt: nil, serverTime: h.nowMs)])
        #expect(h.pendingTimers == 0)
    }

    @Test func renewMovesBothTimers() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        try h.clock.advance(by: 50_000)
        let renewedAt = h.nowMs
        let newToken = try h.token("alice", ttl: 100)
        let effects = h.frame(1, #"{"op":"renewToken","id":"r","token":""# + newToken + #""}"#)
        #expect(h.pendingTimers == 1)
        #expect(frames(effects, to: 1) == [.renewTokenOK(id: "r", tokenExpiresAt: renewedAt + 100_000)])
        // The old 80 % mark passes silently (the engine only asks to be woken for what is left).
        #expect(try h.advance(by: 50_000).allSatisfy { if case .wake = $0 { true } else { false } })
        #expect(frames(try h.advance(by: 30_000), to: 1) == [.tokenWillExpire(expiresAt: renewedAt + 100_000)])
        #expect(closes(try h.advance(by: 20_000)).map(\.1) == [4108])
    }

    @Test(arguments: [("garbage", 104, "invalid token"), ("bob", 202, "the token does not authenticate this user"),
                      ("expired", 108, "the token has expired")])
    func badRenewChangesNothing(kind: String, code: Int, message: String) throws {
        var h = try SessionHarness()
        let start = h.nowMs
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        let token: String
        switch kind {
        case "bob": token = try h.token("bob")
        case "expired": token = try h.token("alice", ttl: 1)
        default: token = "garbage"
        }
        if kind == "expired" { try h.clock.advance(by: 1_000) }
        let effects = h.frame(1, #"{"op":"renewToken","id":"r","token":""# + token + #""}"#)
        #expect(effects == [.send(ConnectionID(1), .error(id: "r", code: code, message: message, field: "token"))])
        #expect(h.engine.sessions(of: "alice", in: h.app).first?.tokenExpiresAtMs == start + 100_000)
        #expect(h.pendingTimers == 1)
        #expect(closes(try h.advance(by: start + 100_000 - h.nowMs)).map(\.1) == [4108])
    }

    @Test func renewWithANeverExpiringTokenCancelsTheTimers() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        let effects = h.frame(1, #"{"op":"renewToken","id":"r","token":""# + (try h.token("alice", ttl: 0)) + #""}"#)
        #expect(frames(effects, to: 1) == [.renewTokenOK(id: "r", tokenExpiresAt: nil)])
        #expect(h.pendingTimers == 0)
    }

    @Test func aWakeUpAfterTheSessionEndedDoesNothing() throws {
        var h = try SessionHarness()
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        h.close(1)
        #expect(h.pendingTimers == 0)
        #expect(h.engine.fireDueTimers(nowMs: h.nowMs + 100_000).isEmpty)
    }
}
