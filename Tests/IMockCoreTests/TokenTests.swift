import IMockCommon
import Testing

@testable import IMockCore

@Suite struct TokenTests {
    @Test func appTokenRoundTripAndCredentials() throws {
        var (directory, key, _) = try makeDirectory()
        let issued = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: 60, nowMs: 1_000)
        #expect(issued.token.hasPrefix("YWMt"))
        #expect(issued.expiresInSeconds == 60)
        #expect(issued.claims.expiresAtMs == 61_000 && issued.claims.kind == .app)
        #expect(try directory.verifyToken(issued.token, for: key, nowMs: 1_000) == issued.claims)
        #expect(directoryError { _ = try directory.issueAppToken(in: key, clientID: "x", clientSecret: "secret", ttlSeconds: nil, nowMs: 0) } == .clientIDMismatch)
        #expect(directoryError { _ = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "x", ttlSeconds: nil, nowMs: 0) } == .clientSecretMismatch)
        #expect(directoryError { _ = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: -1, nowMs: 0) } == .invalidTTL(-1))
    }

    @Test func expiryFollowsTheVirtualClock() throws {
        var (directory, key, _) = try makeDirectory()
        let clock = Timeline(mode: .virtual, startMs: 5_000)
        let issued = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: 3600, nowMs: clock.nowMs)
        try clock.advance(by: 3_599_999)
        #expect(tokenError { _ = try directory.verifyToken(issued.token, for: key, nowMs: clock.nowMs) } == nil)
        try clock.advance(by: 1)
        #expect(tokenError { _ = try directory.verifyToken(issued.token, for: key, nowMs: clock.nowMs) } == .expired)
    }

    @Test func ttlZeroNeverExpiresAndAbsentTTLUsesTheAppDefault() throws {
        var (directory, key, _) = try makeDirectory()
        let forever = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: 0, nowMs: 0)
        #expect(forever.claims.expiresAtMs == nil && forever.expiresInSeconds == 0)
        #expect(tokenError { _ = try directory.verifyToken(forever.token, for: key, nowMs: .max) } == nil)
        let byDefault = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: nil, nowMs: 0)
        #expect(byDefault.expiresInSeconds == AppSettings.defaultTokenTTL)
    }

    @Test func tamperingIsDetected() throws {
        var (directory, key, _) = try makeDirectory()
        let token = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: 0, nowMs: 0).token
        let dot = try #require(token.firstIndex(of: "."))
        let claimPart = String(token[token.index(token.startIndex, offsetBy: 4)..<dot])
        let macPart = String(token[token.index(after: dot)...])
        var claimBytes = try #require(Base64URL.decode(claimPart))
        var macBytes = try #require(Base64URL.decode(macPart))
        // Flip a byte inside the subject (still valid JSON): the MAC no longer matches.
        let subjectIndex = try #require(claimBytes.firstIndex(of: UInt8(ascii: "c")))
        claimBytes[subjectIndex] ^= 0x01
        let badClaims = "YWMt" + Base64URL.encode(claimBytes) + "." + macPart
        macBytes[0] ^= 0x80
        let badMAC = "YWMt" + claimPart + "." + Base64URL.encode(macBytes)
        #expect(tokenError { _ = try directory.verifyToken(badClaims, for: key, nowMs: 0) } == .badSignature)
        #expect(tokenError { _ = try directory.verifyToken(badMAC, for: key, nowMs: 0) } == .badSignature)
        for malformed in ["", "YWM", "abcd" + token.dropFirst(4), String(token.dropLast()), token + "x", "YWMt!!.!!", String(token[..<dot])] {
            #expect(tokenError { _ = try directory.verifyToken(malformed, for: key, nowMs: 0) } == .malformed)
        }
    }

    @Test func tokensOfOneAppAreRefusedByEveryOther() throws {
        var (directory, key, other) = try makeDirectory()
        let token = try directory.issueAppToken(in: key, clientID: "cid", clientSecret: "secret", ttlSeconds: 0, nowMs: 0).token
        #expect(tokenError { _ = try directory.verifyToken(token, for: other, nowMs: 0) } == .otherApp(key))
    }

    @Test func userTokensAndRevocation() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerUser(NewUser(username: "dan", password: "pw"), in: key, nowMs: 0)
        let first = try directory.issueUserToken(in: key, username: "DAN", password: "pw", ttlSeconds: nil, nowMs: 0)
        let second = try directory.issueUserToken(in: key, username: "dan", password: "pw", ttlSeconds: nil, nowMs: 0)
        #expect(first.token.claims.subject == "dan" && first.token.claims.kind == .user)
        directory.revokeToken(id: first.token.claims.tokenID, in: key)
        #expect(tokenError { _ = try directory.verifyToken(first.token.token, for: key, nowMs: 0) } == .revoked)
        #expect(tokenError { _ = try directory.verifyToken(second.token.token, for: key, nowMs: 0) } == nil)
        // A password change at the same millisecond still refuses older tokens.
        try directory.changePassword("dan", to: "pw2", in: key, nowMs: 0)
        #expect(tokenError { _ = try directory.verifyToken(second.token.token, for: key, nowMs: 0) } == .revoked)
        let third = try directory.issueUserToken(in: key, username: "dan", password: "pw2", ttlSeconds: nil, nowMs: 0)
        #expect(tokenError { _ = try directory.verifyToken(third.token.token, for: key, nowMs: 0) } == nil)
        // Deleting and re-creating the user does not revive old tokens.
        try directory.deleteUser("dan", in: key)
        try directory.registerUser(NewUser(username: "dan", password: "pw"), in: key, nowMs: 0)
        #expect(tokenError { _ = try directory.verifyToken(third.token.token, for: key, nowMs: 0) } == .revoked)
        try directory.revokeAllTokens(of: "dan", in: key)
    }

    @Test func inheritGrantCreatesUsersOnRequest() throws {
        var (directory, key, _) = try makeDirectory()
        #expect(directoryError { _ = try directory.issueInheritedUserToken(in: key, username: "eve", autoCreateUser: false, ttlSeconds: nil, nowMs: 0) } == .userNotFound("eve"))
        let before = directory
        #expect(directoryError { _ = try directory.issueInheritedUserToken(in: key, username: "eve", autoCreateUser: true, ttlSeconds: -5, nowMs: 0) } == .invalidTTL(-5))
        #expect(directory == before)
        let result = try directory.issueInheritedUserToken(in: key, username: "Eve", autoCreateUser: true, ttlSeconds: 10, nowMs: 0)
        #expect(result.created && result.user.username == "eve" && result.user.passwordHash == nil)
        #expect(directoryError { _ = try directory.issueUserToken(in: key, username: "eve", password: "x", ttlSeconds: nil, nowMs: 0) } == .invalidPassword)
        #expect(try directory.issueInheritedUserToken(in: key, username: "eve", autoCreateUser: true, ttlSeconds: 10, nowMs: 0).created == false)
    }

    @Test func tokenPrefixHidesTheToken() {
        #expect(tokenPrefix("YWMtabcdefghijklmnop") == "YWMt…ijklmnop")
        #expect(tokenPrefix("YWMtabcdefgh") == "YWMt…")
        #expect(tokenPrefix("abc") == "abc…")
    }

    @Test func rateLimiterCountsPerSecond() throws {
        var limiter = RateLimiter()
        let key = try AppKey(org: "a", app: "b")
        var admitted: [Bool] = []
        for _ in 0..<3 { admitted.append(limiter.admit(key, limitPerSecond: 2, nowMs: 1_500)) }
        admitted.append(limiter.admit(key, limitPerSecond: 2, nowMs: 2_000))
        admitted.append(limiter.admit(key, limitPerSecond: nil, nowMs: 2_000))
        #expect(admitted == [true, true, false, true, true])
    }
}
