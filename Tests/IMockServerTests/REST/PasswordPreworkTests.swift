import IMockCommon
import IMockCore
import IMockNet
import Testing

@testable import IMockServer

/// Registration asks for its password hashes first when the server derives them off the loop
/// (`PasswordWork.offLoop`), and registers with them when run again (`.derived`).
@Suite("Password hashes derived off the loop")
struct PasswordPreworkTests {
    static let batch = #"[{"username":"b1","password":"p1"},{"username":"alice","password":"p"},{"username":"b2","password":"p2"}]"#

    /// Runs the first pass, derives what it asked for, and runs the second.
    static func twoPasses(
        _ fixture: inout RESTFixture, body: String, token: String?
    ) -> (first: RESTOutcome, second: RESTOutcome) {
        let first = fixture.send("POST", "/acme/chat/users", body: body, token: token, passwords: .offLoop)
        let hashes = first.derivations.map { $0?.derive() }
        let second = fixture.send("POST", "/acme/chat/users", body: body, token: token, passwords: .derived(hashes))
        return (first, second)
    }

    @Test("a batch asks for the hashes of the users it would create, changing nothing; run again it registers them")
    func batchInTwoPasses() throws {
        var fixture = try RESTFixture()
        let before = fixture.state.directory
        let first = fixture.send("POST", "/acme/chat/users", body: Self.batch, token: fixture.appToken, passwords: .offLoop)
        #expect(first.derivations.map { $0?.password } == ["p1", nil, "p2"])  // alice exists
        #expect(first.derivations.compactMap { $0?.iterations } == [1, 1])
        #expect(fixture.state.directory == before)
        #expect(first.response.status == 500)  // what a caller that ignores the request would send

        let hashes = first.derivations.map { $0?.derive() }
        let second = fixture.send("POST", "/acme/chat/users", body: Self.batch, token: fixture.appToken, passwords: .derived(hashes))
        #expect(second.derivations.isEmpty)
        #expect(second.response.status == 200)
        #expect(second.json["entities"]?.arrayValue?.compactMap { $0["username"]?.stringValue } == ["b1", "b2"])
        #expect(second.json["data"] == [["username": "alice", "registerUserFailReason": "the alice already exists"]])
        // The stored hashes are the derived ones, and they check the passwords.
        let b1 = try fixture.state.directory.user("b1", in: fixture.chat)
        #expect(b1.passwordHash == hashes[0])
        #expect(b1.passwordHash?.verify("p1") == true)
        #expect(try fixture.state.directory.user("b2", in: fixture.chat).passwordHash?.verify("p2") == true)
    }

    @Test("a single registration asks for one hash; run again it registers with it")
    func singleInTwoPasses() throws {
        var fixture = try RESTFixture()
        let (first, second) = Self.twoPasses(&fixture, body: #"{"username":"solo","password":"secret"}"#, token: fixture.appToken)
        #expect(first.derivations.map { $0?.password } == ["secret"])
        #expect(second.response.status == 200)
        #expect(try fixture.state.directory.user("solo", in: fixture.chat).passwordHash?.verify("secret") == true)
    }

    @Test("nothing to derive — refused callers, invalid entries, existing users — is answered in the first pass")
    func refusalsNeedNoHashes() throws {
        var fixture = try RESTFixture()
        let noToken = fixture.send("POST", "/acme/chat/users", body: Self.batch, passwords: .offLoop)
        #expect(noToken.derivations.isEmpty && noToken.errorName == "unauthorized")
        let invalid = fixture.send(
            "POST", "/acme/chat/users", body: #"[{"username":"ok1","password":"p"},{"username":"bad name!","password":"p"}]"#,
            token: fixture.appToken, passwords: .offLoop)
        #expect(invalid.derivations.isEmpty && invalid.response.status == 400)
        let existing = fixture.send(
            "POST", "/acme/chat/users", body: #"{"username":"alice","password":"p"}"#, token: fixture.appToken, passwords: .offLoop)
        #expect(existing.derivations.isEmpty && existing.errorName == "duplicate_unique_property_exists")
    }

    @Test("a user created between the passes is reported as existing, not registered twice")
    func createdMeanwhile() throws {
        var fixture = try RESTFixture()
        let first = fixture.send("POST", "/acme/chat/users", body: Self.batch, token: fixture.appToken, passwords: .offLoop)
        try fixture.state.directory.registerUser(NewUser(username: "b2", password: "other"), in: fixture.chat, nowMs: fixture.nowMs)
        let second = fixture.send(
            "POST", "/acme/chat/users", body: Self.batch, token: fixture.appToken,
            passwords: .derived(first.derivations.map { $0?.derive() }))
        #expect(second.json["entities"]?.arrayValue?.compactMap { $0["username"]?.stringValue } == ["b1"])
        #expect(second.json["data"]?.arrayValue?.compactMap { $0["username"]?.stringValue } == ["alice", "b2"])
        #expect(try fixture.state.directory.user("b2", in: fixture.chat).passwordHash?.verify("other") == true)
    }

    @Test("the rate limit counts the request once, not once per pass")
    func rateLimitCountsOnce() throws {
        var fixture = try RESTFixture(rateLimit: 1)
        let (first, second) = Self.twoPasses(&fixture, body: #"{"username":"r1","password":"p"}"#, token: fixture.appToken)
        #expect(!first.derivations.isEmpty)
        #expect(second.response.status == 200)
        let next = fixture.send("POST", "/acme/chat/users", body: #"{"username":"r2","password":"p"}"#, token: fixture.appToken, passwords: .offLoop)
        #expect(next.errorName == "reach_limit")
    }

    /// The password grant, in two passes.
    static func passwordGrant(_ fixture: inout RESTFixture, _ password: String, between: (inout RESTFixture) throws -> Void = { _ in })
        rethrows -> (first: RESTOutcome, second: RESTOutcome)
    {
        let body = #"{"grant_type":"password","username":"alice","password":"\#(password)"}"#
        let first = fixture.send("POST", "/acme/chat/token", body: body, passwords: .offLoop)
        try between(&fixture)
        let second = fixture.send("POST", "/acme/chat/token", body: body, passwords: .derived(first.derivations.map { $0?.derive() }))
        return (first, second)
    }

    @Test("the password grant asks for the password's hash with the user's salt; run again it compares the two")
    func passwordGrantInTwoPasses() throws {
        var fixture = try RESTFixture()
        let stored = try #require(fixture.state.directory.user("alice", in: fixture.chat).passwordHash)
        let right = try Self.passwordGrant(&fixture, "pw")
        #expect(right.first.derivations == [PasswordDerivation(password: "pw", checking: stored)])
        #expect(right.second.response.status == 200 && right.second.json["access_token"] != nil)
        let wrong = try Self.passwordGrant(&fixture, "nope")
        #expect(wrong.second.response.status == 400 && wrong.second.errorName == "invalid_grant")
        // Unknown users are refused in the first pass.
        let unknown = fixture.send(
            "POST", "/acme/chat/token", body: #"{"grant_type":"password","username":"zed","password":"pw"}"#, passwords: .offLoop)
        #expect(unknown.derivations.isEmpty && unknown.response.status == 404)
    }

    @Test("a password changed between the passes is checked anew: the old one no longer works")
    func passwordChangedMeanwhile() throws {
        var fixture = try RESTFixture()
        let old = try Self.passwordGrant(&fixture, "pw") { fixture in
            try fixture.state.directory.changePassword("alice", to: "new", in: fixture.chat, nowMs: fixture.nowMs)
        }
        #expect(old.second.errorName == "invalid_grant")
        #expect(try Self.passwordGrant(&fixture, "new").second.response.status == 200)
    }

    @Test("a password change asks for the new hash first; run again it stores it")
    func passwordChangeInTwoPasses() throws {
        var fixture = try RESTFixture()
        let target = "/acme/chat/users/alice/password"
        let body = #"{"newpassword":"fresh"}"#
        let first = fixture.send("PUT", target, body: body, token: fixture.appToken, passwords: .offLoop)
        #expect(first.derivations.map { $0?.password } == ["fresh"])
        #expect(try fixture.state.directory.user("alice", in: fixture.chat).passwordHash?.verify("pw") == true)
        let hashes = first.derivations.map { $0?.derive() }
        let second = fixture.send("PUT", target, body: body, token: fixture.appToken, passwords: .derived(hashes))
        #expect(second.response.status == 200)
        #expect(second.effects == [.passwordChanged(fixture.chat, username: "alice")])
        #expect(try fixture.state.directory.user("alice", in: fixture.chat).passwordHash == hashes[0])
        let missing = fixture.send("PUT", "/acme/chat/users/zed/password", body: body, token: fixture.appToken, passwords: .offLoop)
        #expect(missing.derivations.isEmpty && missing.errorName == "entity_not_found")
    }

    @Test("a derivation is PBKDF2 of the password with its salt: the same as hashing inline with that salt")
    func derivationMatchesPasswordHash() throws {
        let derivation = PasswordDerivation(password: "pässword", iterations: 3, random: RandomSource(seed: 7))
        let hash = derivation.derive()
        #expect(hash.salt == derivation.salt && hash.salt.count == 16 && hash.iterations == 3)
        #expect(hash.digest == Crypto.pbkdf2SHA256(password: Array("pässword".utf8), salt: derivation.salt, iterations: 3))
        #expect(hash.verify("pässword") && !hash.verify("password"))
        #expect(PasswordHash(hashing: "pässword", iterations: 3, random: RandomSource(seed: 7)) == hash)
    }
}
