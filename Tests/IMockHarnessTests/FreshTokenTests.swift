import IMockHarness
import Testing

extension HarnessTests {
    /// "A fresh token of the user" does not depend on the user's password.
    @Suite("Fresh tokens")
    struct FreshTokenTests {
        @Test("after a step changed the password, the default token and issueToken still get the user a token")
        func afterPasswordChange() async throws {
            let fixture = try parseFixture(miniFixture(steps: """
                [{"rest": "PUT users/alice/password", "body": {"newpassword": "changed"}},
                 {"do": "login", "device": "phone", "result": {"error": null}},
                 {"issueToken": "t1", "user": "alice", "ttl": "10m"},
                 {"do": "login", "device": "pad", "token": {"name": "t1"}, "result": {"error": null}},
                 {"rest": "POST token", "auth": "none", "body": {"grant_type": "password", "username": "alice", "password": "alice-password"}, "status": 400}]
                """))
            let result = await run(fixture)
            #expect(result.outcome == .passed, "\(ConsoleReport.scenario(result))")
        }
    }
}
