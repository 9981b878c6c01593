import IMockCommon
import Testing

@testable import IMockCore

/// OpenIM's JWT tokens in the directory: the format, verification beside `YWMt` tokens, the
/// platform binding at login, kicked tokens, passwordless registration.
@Suite struct OpenIMTokenTests {
    @Test func aUserTokenIsAnHS256JWTWithOpenIMsClaims() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerPasswordlessUsers([("Amy", "Amy A.")], in: key, nowMs: 0)
        let issued = try directory.issueOpenIMUserToken(in: key, username: "amy", platform: .android, ttlSeconds: 60, nowMs: 1_234_567)
        let parts = issued.token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        #expect(Base64URL.decode(parts[0]).map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"HS256","typ":"JWT"}"#)
        let payload = try JSONValue.parse(try #require(Base64URL.decode(parts[1])))
        #expect(payload["UserID"] == "amy" && payload["PlatformID"] == 2)
        #expect(payload["iat"] == 1_234 && payload["exp"] == 1_294 && payload["app"] == "acme#chat")
        // The signature is HMAC-SHA256 of the signing input under the app's key.
        let mac = Crypto.hmacSHA256(key: try directory.app(key).signingKey, message: Array((parts[0] + "." + parts[1]).utf8))
        #expect(Base64URL.encode(mac) == parts[2])
        let claims = try directory.verifyToken(issued.token, for: key, nowMs: 1_250_000)
        #expect(claims == issued.claims)
        #expect(claims.platformID == 2 && claims.issuedAtMs == 1_234_000 && claims.expiresAtMs == 1_294_000)
        #expect(try directory.app(key).issuedTokens.records.last?.platformID == 2)
        #expect(tokenError { _ = try directory.verifyToken(issued.token, for: key, nowMs: 1_294_000) } == .expired)
    }

    @Test func tamperedForeignAndMalformedJWTsAreRefused() throws {
        var (directory, key, other) = try makeDirectory()
        try directory.registerPasswordlessUsers([("amy", nil)], in: key, nowMs: 0)
        try directory.registerPasswordlessUsers([("amy", nil)], in: other, nowMs: 0)
        let token = try directory.issueOpenIMUserToken(in: key, username: "amy", platform: .ios, ttlSeconds: 0, nowMs: 0).token
        let foreign = try directory.issueOpenIMUserToken(in: other, username: "amy", platform: .ios, ttlSeconds: 0, nowMs: 0).token
        #expect(tokenError { _ = try directory.verifyToken(String(token.dropLast(2)) + "AA", for: key, nowMs: 0) } == .badSignature)
        #expect(tokenError { _ = try directory.verifyToken(foreign, for: key, nowMs: 0) } == .otherApp(other))
        for bad in ["eyJ.a.b", "eyJhbGciOiJub25lIn0.e30.", token + ".x", "eyJ" + String(token.dropFirst(3).prefix(10))] {
            #expect(tokenError { _ = try directory.verifyToken(bad, for: key, nowMs: 0) } == .malformed, "\(bad)")
        }
    }

    @Test func adminTokensAreAppTokensOfImAdminOnPlatform10() throws {
        var (directory, key, _) = try makeDirectory()
        #expect(directoryError { _ = try directory.issueOpenIMAdminToken(in: key, secret: "nope", ttlSeconds: nil, nowMs: 0) }
            == .clientSecretMismatch)
        let admin = try directory.issueOpenIMAdminToken(in: key, secret: "secret", ttlSeconds: nil, nowMs: 0)
        let claims = try directory.verifyToken(admin.token, for: key, nowMs: 0)
        #expect(claims.kind == .app && claims.subject == "cid" && claims.platformID == 10)
        #expect(OpenIMTokenCodec.userID(of: claims) == "imAdmin")
    }

    /// The secret "secret" against presented secrets of every length: the comparison
    /// (`Crypto.secretsEqual`) answers as byte equality whatever the lengths. Its point, time
    /// that shows neither the secret's length nor where a wrong one differs, is not assertable.
    @Test(arguments: [
        "", "s", "secre", "secreT", "Secret", "secret ", "secret\u{0}", "secretsecret", String(repeating: "secret", count: 200),
    ])
    func adminTokenSecretsOfAnyLengthAreRefused(_ presented: String) throws {
        var (directory, key, _) = try makeDirectory()
        #expect(directoryError { _ = try directory.issueOpenIMAdminToken(in: key, secret: presented, ttlSeconds: nil, nowMs: 0) }
            == .clientSecretMismatch)
    }

    @Test func kickingAUsersPlatformTokensLeavesTheOthers() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerPasswordlessUsers([("amy", nil), ("bob", nil)], in: key, nowMs: 0)
        func token(_ user: String, _ platform: OpenIMPlatform) throws -> String {
            try directory.issueOpenIMUserToken(in: key, username: user, platform: platform, ttlSeconds: 0, nowMs: 0).token
        }
        let (phone1, phone2, desk, bobPhone) = (try token("amy", .ios), try token("amy", .ios), try token("amy", .osx), try token("bob", .ios))
        #expect(directory.kickOpenIMTokens(of: "AMY", platformID: 1, in: key).count == 2)
        for kicked in [phone1, phone2] {
            #expect(tokenError { _ = try directory.verifyToken(kicked, for: key, nowMs: 0) } == .kicked)
        }
        for live in [desk, bobPhone] { #expect(throws: Never.self) { try directory.verifyToken(live, for: key, nowMs: 0) } }
    }

    @Test func passwordlessRegistrationIsAllOrNothing() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerPasswordlessUsers([("amy", nil)], in: key, nowMs: 0)
        #expect(directoryError { try directory.registerPasswordlessUsers([("bob", nil), ("amy", nil)], in: key, nowMs: 0) } == .userExists("amy"))
        #expect(directoryError { try directory.registerPasswordlessUsers([("bob", nil), ("BOB", nil)], in: key, nowMs: 0) } == .userExistsInBatch("bob"))
        #expect(directoryError { try directory.registerPasswordlessUsers([("b b", nil)], in: key, nowMs: 0) } == .illegalUsername("b b"))
        #expect(try directory.app(key).users["bob"] == nil)
        #expect(try directory.app(key).users["amy"]?.passwordHash == nil)
    }

    @Test func aPlatformBoundTokenLogsInOnItsPlatformOnly() throws {
        var (directory, key, _) = try makeDirectory()
        try directory.registerPasswordlessUsers([("amy", nil)], in: key, nowMs: 0)
        let token = try directory.issueOpenIMUserToken(in: key, username: "amy", platform: .web, ttlSeconds: 0, nowMs: 0).token
        var engine = SessionEngine()
        func login(_ connection: UInt64, _ platform: OpenIMPlatform) -> [SessionOutput] {
            _ = engine.connectionOpened(ConnectionID(connection), nowMs: 0)
            let request = LoginRequest(
                appKey: "acme#chat", user: "amy", token: token, device: DeviceDescription(platform: .openIM(platform), uuid: "d\(connection)"))
            return engine.handle(.login(RequestTag("l"), request), on: ConnectionID(connection), nowMs: 0, directory: &directory)
        }
        #expect(login(1, .ios).contains { if case .end(_, let end) = $0 { end.cause == .loginRefused(RequestTag("l"), .tokenForAnotherUser) } else { false } })
        #expect(login(2, .web).contains { if case .reply(_, _, .loginAccepted) = $0 { true } else { false } })
    }
}
