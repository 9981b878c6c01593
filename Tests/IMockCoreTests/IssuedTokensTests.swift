import Testing

@testable import IMockCore

@Suite struct IssuedTokensTests {
    /// `(id, state)` of every kept token of app `key`, newest first.
    func states(_ directory: Directory, _ key: AppKey, nowMs: Int64, user: String? = nil, state: IssuedTokenState? = nil)
        throws -> [String]
    {
        try directory.app(key).issuedTokenStatuses(user: user, state: state, nowMs: nowMs).map {
            "\($0.record.id) \($0.state.rawValue)"
        }
    }

    @Test func issuingRecordsEveryFieldButTheToken() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerUser(NewUser(username: "amy", password: "pw"), in: key, nowMs: 0)
        let app = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: 0, nowMs: 10)
        let user = try directory.issueUserToken(in: key, username: "AMY", password: "pw", ttlSeconds: 60, nowMs: 20)
        let records = Array(try directory.app(key).issuedTokens.records)
        #expect(records.count == 2)
        #expect(records[0].id == app.claims.tokenID && records[0].kind == .app && records[0].subject == nil)
        #expect(records[0].issuedAtMs == 10 && records[0].expiresAtMs == nil && records[0].revocation == nil)
        #expect(records[0].prefix == "YWMt…" + String(app.token.suffix(8)) && records[0].prefix.count == 13)
        #expect(records[0].prefix != records[1].prefix, "two tokens must look different")
        #expect(records[1].id == user.token.claims.tokenID && records[1].kind == .user && records[1].subject == "amy")
        #expect(records[1].issuedAtMs == 20 && records[1].expiresAtMs == 60_020)
        #expect(records[1].prefix == tokenPrefix(user.token.token))
        // The other app records nothing.
        #expect(try directory.app(try AppKey(org: "acme", app: "other")).issuedTokens.count == 0)
    }

    @Test func eachStateAndTheFilters() throws {
        var (directory, key, _) = try makeDirectory()
        for name in ["amy", "bob"] {
            try directory.registerUser(NewUser(username: name, password: "pw"), in: key, nowMs: 0)
        }
        func issue(_ name: String, ttl: Int64) throws -> UInt64 {
            try directory.issueUserToken(in: key, username: name, password: "pw", ttlSeconds: ttl, nowMs: 1_000).token.claims.tokenID
        }
        let short = try issue("amy", ttl: 1)  // expires at 2_000
        let revoked = try issue("amy", ttl: 60)
        let kicked = try issue("bob", ttl: 60)
        let live = try issue("bob", ttl: 0)
        let app = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: 1, nowMs: 1_000)
            .claims.tokenID
        let revokedFound = directory.revokeToken(id: revoked, in: key)
        let kickedFound = directory.revokeToken(id: kicked, in: key, reason: .kicked)
        #expect(revokedFound && kickedFound)
        #expect(try states(directory, key, nowMs: 1_999) == [
            "\(app) live", "\(live) live", "\(kicked) kicked", "\(revoked) revoked", "\(short) live",
        ])
        // Expiry is `now ≥ expiresAtMs`; revoked and kicked tokens stay so after their expiry.
        #expect(try states(directory, key, nowMs: 2_000) == [
            "\(app) expired", "\(live) live", "\(kicked) kicked", "\(revoked) revoked", "\(short) expired",
        ])
        #expect(try states(directory, key, nowMs: 100_000) == [
            "\(app) expired", "\(live) live", "\(kicked) kicked", "\(revoked) revoked", "\(short) expired",
        ])
        #expect(try states(directory, key, nowMs: 2_000, user: "amy") == ["\(revoked) revoked", "\(short) expired"])
        #expect(try states(directory, key, nowMs: 2_000, state: .expired) == ["\(app) expired", "\(short) expired"])
        #expect(try states(directory, key, nowMs: 2_000, user: "bob", state: .kicked) == ["\(kicked) kicked"])
        #expect(try states(directory, key, nowMs: 2_000, user: "nobody").isEmpty)
        // The counters agree with the states: both individually revoked ids are refused.
        #expect(try directory.app(key).revokedTokenSerials == [revoked, kicked])
    }

    @Test func kickedVersusRevokedKeepsTheFirstReason() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerUser(NewUser(username: "amy", password: "pw"), in: key, nowMs: 0)
        let first = try directory.issueUserToken(in: key, username: "amy", password: "pw", ttlSeconds: 0, nowMs: 0)
        let second = try directory.issueUserToken(in: key, username: "amy", password: "pw", ttlSeconds: 0, nowMs: 0)
        directory.revokeToken(id: first.token.claims.tokenID, in: key, reason: .kicked)
        directory.revokeToken(id: first.token.claims.tokenID, in: key)
        directory.revokeToken(id: second.token.claims.tokenID, in: key)
        directory.revokeToken(id: second.token.claims.tokenID, in: key, reason: .kicked)
        let records = Array(try directory.app(key).issuedTokens.records)
        #expect(records.map(\.revocation) == [.kicked, .revoked])
        // Both are refused; verification tells them apart by the first reason (OpenIM 1506 vs 1507).
        #expect(tokenError { _ = try directory.verifyToken(first.token.token, for: key, nowMs: 0) } == .kicked)
        #expect(tokenError { _ = try directory.verifyToken(second.token.token, for: key, nowMs: 0) } == .revoked)
        // An id that was never recorded (or already dropped) is still revoked by the counters.
        let unrecorded = directory.revokeToken(id: 99, in: key, reason: .kicked)
        #expect(unrecorded)
        #expect(try directory.app(key).revokedTokenSerials.contains(99))
        let noApp = directory.revokeToken(id: 1, in: try AppKey(org: "acme", app: "none"), reason: .kicked)
        #expect(!noApp)
    }

    @Test func passwordChangeRevokeAllAndRecreationMakeOlderTokensRevoked() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerUser(NewUser(username: "amy", password: "pw"), in: key, nowMs: 0)
        func issue(_ password: String) throws -> UInt64 {
            try directory.issueUserToken(in: key, username: "amy", password: password, ttlSeconds: 0, nowMs: 0).token.claims.tokenID
        }
        let old = try issue("pw")
        try directory.changePassword("amy", to: "pw2", in: key, nowMs: 0)
        let afterChange = try issue("pw2")
        #expect(try states(directory, key, nowMs: 0) == ["\(afterChange) live", "\(old) revoked"])
        try directory.revokeAllTokens(of: "amy", in: key)
        let afterRevokeAll = try issue("pw2")
        #expect(try states(directory, key, nowMs: 0) == [
            "\(afterRevokeAll) live", "\(afterChange) revoked", "\(old) revoked",
        ])
        _ = try directory.deleteUser("amy", in: key)
        #expect(try states(directory, key, nowMs: 0, state: .revoked).count == 3)
        try directory.registerUser(NewUser(username: "amy", password: "pw"), in: key, nowMs: 0)
        #expect(try states(directory, key, nowMs: 0, state: .live).isEmpty)
    }

    @Test func theListKeepsAtMostItsCapacityDroppingTheOldest() throws {
        var (directory, key, _) = try makeDirectory()
        directory.apps[key]?.issuedTokens = IssuedTokens(capacity: 3)
        var ids: [UInt64] = []
        for now in 0..<10 {
            let token = try directory.issueAppToken(
                in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: 0, nowMs: Int64(now))
            ids.append(token.claims.tokenID)
            let kept = try directory.app(key).issuedTokens
            #expect(kept.count == min(now + 1, 3))
            #expect(kept.records.map(\.id) == Array(ids.suffix(3)))
        }
        let kept = try directory.app(key).issuedTokens
        #expect(kept.record(id: ids[6]) == nil)
        #expect(kept.record(id: ids[7])?.issuedAtMs == 7)
        // Revoking a dropped token still refuses it; revoking a kept one marks its record.
        directory.revokeToken(id: ids[0], in: key, reason: .kicked)
        directory.revokeToken(id: ids[9], in: key, reason: .kicked)
        #expect(try states(directory, key, nowMs: 0) == ["\(ids[9]) kicked", "\(ids[8]) live", "\(ids[7]) live"])
        #expect(IssuedTokens.defaultCapacity == 100_000)
        #expect(IssuedTokens().capacity == 100_000 && IssuedTokens(capacity: 0).capacity == 1)
    }

    @Test func equalityIgnoresHowTheDroppedPrefixIsStored() throws {
        let key = try AppKey(org: "a", app: "b")
        func record(_ id: UInt64) -> IssuedTokenRecord {
            IssuedTokenRecord(
                claims: TokenClaims(appKey: key, subject: "u", kind: .user, issuedAtMs: 0, expiresAtMs: nil, tokenID: id),
                token: "YWMt\(id)")
        }
        var compacted = IssuedTokens(capacity: 2)
        var fresh = IssuedTokens(capacity: 2)
        for id in 1...4 { compacted.record(record(UInt64(id))) }
        var shifted = IssuedTokens(capacity: 2)
        for id in 2...4 { shifted.record(record(UInt64(id))) }
        for id in 3...4 { fresh.record(record(UInt64(id))) }
        #expect(compacted == fresh && shifted == fresh)
        fresh.markRevoked(id: 4, reason: .revoked)
        #expect(compacted != fresh)
    }

    @Test func aSeedRoundTripCarriesNoTokenList() throws {
        let original = try SeedRoundTripTests.populatedDirectory()
        let chat = try AppKey(parsing: "acme#chat")
        #expect(try original.app(chat).issuedTokens.count == 2)
        let reloaded = try SeedDocument.parse(bytes: SeedDocument.export(original).encoded())
            .makeDirectory(settings: original.settings, nowMs: 0)
        #expect(try reloaded.app(chat).issuedTokens.count == 0)
        var restored = original
        try restored.restoreApp(from: SeedApp.export(try original.app(chat)), nowMs: 0)
        #expect(try restored.app(chat).issuedTokens.count == 0)
        #expect(try restored.app(chat).revokedTokenSerials == original.app(chat).revokedTokenSerials)
    }
}
