import IMockCommon
import IMockTestSupport
import Testing

@testable import IMockCore

@Suite("Session engine: token lifecycle")
struct TokenLifecycleTests {
    @Test func loginSchedulesWillExpireAt80PercentAndExpiryAt100() throws {
        var h = try EngineHarness()
        let start = h.nowMs
        let outputs = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        // One wake-up for the earliest; the warning waits in the engine's queue, the expiry
        // follows it there once it fired.
        #expect(wakes(outputs) == [start + 80_000])
        #expect(h.pendingTimers == 1)
        _ = try h.advance(by: 80_000)
        #expect(h.engine.nextTokenTimerDeadlineMs == start + 100_000)
    }

    @Test func willExpireThenExpiredThenTheSessionEndsOnTheVirtualClock() throws {
        var h = try EngineHarness()
        let start = h.nowMs
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        #expect(try h.advance(by: 79_999).isEmpty)
        let warning = try h.advance(by: 1)
        #expect(pushes(warning, to: 1) == [.tokenWillExpire(expiresAt: start + 100_000)])
        #expect(ends(warning).isEmpty)
        #expect(try h.advance(by: 19_999).isEmpty)
        let expiry = try h.advance(by: 1)
        #expect(ends(expiry).map(\.connection) == [ConnectionID(1)])
        #expect(ends(expiry).map(\.end.cause) == [.tokenExpired])
        #expect(ends(expiry).map(\.end.reason) == ["the token has expired"])
        let journal = expiry.compactMap { output -> JournalEvent? in
            if case .journal(let entry) = output { return entry.event }
            return nil
        }
        #expect(journal == [.tokenExpired])
        #expect(h.engine.sessions(of: "alice", in: h.app).isEmpty)
        #expect(h.pendingTimers == 0)
    }

    @Test func warningPercentIsConfigurable() throws {
        var h = try EngineHarness(configuration: SessionEngineConfiguration(tokenWarningPercent: 50))
        let start = h.nowMs
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 10))
        #expect(try h.advance(by: 4_999).isEmpty)
        #expect(pushes(try h.advance(by: 1), to: 1) == [.tokenWillExpire(expiresAt: start + 10_000)])
    }

    @Test func tokensThatNeverExpireScheduleNothing() throws {
        var h = try EngineHarness()
        let outputs = try h.login(1, "alice", token: try h.token("alice", ttl: 0))
        #expect(replies(outputs, to: 1) == [.loginAccepted(resource: "ios_dev-1", tokenExpiresAt: nil, serverTime: h.nowMs)])
        #expect(h.pendingTimers == 0)
    }

    @Test func renewMovesBothTimers() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        try h.clock.advance(by: 50_000)
        let renewedAt = h.nowMs
        let outputs = h.handle(1, .renewToken(RequestTag("r"), token: try h.token("alice", ttl: 100)))
        #expect(h.pendingTimers == 1)
        #expect(replies(outputs, to: 1) == [.tokenRenewed(tokenExpiresAt: renewedAt + 100_000)])
        // The old 80 % mark passes silently (the engine only asks to be woken for what is left).
        #expect(try h.advance(by: 50_000).allSatisfy { if case .wake = $0 { true } else { false } })
        #expect(pushes(try h.advance(by: 30_000), to: 1) == [.tokenWillExpire(expiresAt: renewedAt + 100_000)])
        #expect(ends(try h.advance(by: 20_000)).map(\.end.cause) == [.tokenExpired])
    }

    @Test(arguments: [("garbage", SessionError.tokenMalformed), ("bob", .tokenForAnotherUser), ("expired", .tokenExpired)])
    func badRenewChangesNothing(kind: String, error: SessionError) throws {
        var h = try EngineHarness()
        let start = h.nowMs
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        let token: String
        switch kind {
        case "bob": token = try h.token("bob")
        case "expired": token = try h.token("alice", ttl: 1)
        default: token = "garbage"
        }
        if kind == "expired" { try h.clock.advance(by: 1_000) }
        let outputs = h.handle(1, .renewToken(RequestTag("r"), token: token))
        #expect(outputs == [.reply(ConnectionID(1), RequestTag("r"), .refused(error, field: "token"))])
        #expect(h.engine.sessions(of: "alice", in: h.app).first?.tokenExpiresAtMs == start + 100_000)
        #expect(h.pendingTimers == 1)
        #expect(ends(try h.advance(by: start + 100_000 - h.nowMs)).map(\.end.cause) == [.tokenExpired])
    }

    @Test func renewWithANeverExpiringTokenCancelsTheTimers() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        let outputs = h.handle(1, .renewToken(RequestTag("r"), token: try h.token("alice", ttl: 0)))
        #expect(replies(outputs, to: 1) == [.tokenRenewed(tokenExpiresAt: nil)])
        #expect(h.pendingTimers == 0)
    }

    @Test func aWakeUpAfterTheSessionEndedDoesNothing() throws {
        var h = try EngineHarness()
        _ = try h.login(1, "alice", token: try h.token("alice", ttl: 100))
        h.close(1)
        #expect(h.pendingTimers == 0)
        #expect(h.engine.fireDueTimers(nowMs: h.nowMs + 100_000).isEmpty)
    }
}
