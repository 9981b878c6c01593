import IMockCore
import IMockHarness
import Testing

extension HarnessTests {
    /// A fault step with `when`: made when a callback is observed, at its virtual time, not at
    /// the step (docs/FIXTURES.md § Control calls).
    @Suite("Faults on a callback")
    struct CallbackTriggeredFaultTests {
        static func fixture(when: String, afterLogin: String) -> String {
            """
            {"name": "fault on a callback", "rules": [{"id": "C2", "source": "004 § 自动重连"}],
             "apps": [{"name": "chat", "users": ["alice", "bob"]}],
             "devices": [{"name": "phone", "user": "alice"}, {"name": "pad", "user": "bob"}],
             "steps": [
               {"do": "login", "device": "phone"},
               {"control": "fault", "kind": "drop", "device": "phone", "when": \(when)},
               {"advance": "1m"},
               {"expect": "absent", "callbacks": ["phone: connectionStateDidChange(state: \\"disconnected\\")"]},
               {"do": "login", "device": "pad"},
               \(afterLogin)]}
            """
        }

        @Test("the fault waits for its callback on another device, then drops the connection right after it")
        func dropsAfterTheCallback() async throws {
            let fixture = try parseFixture(Self.fixture(
                when: #""pad: connectionStateDidChange(state: \"connected\")""#,
                afterLogin: #"{"expect": "order", "callbacks": ["pad: connectionStateDidChange(state: \"connected\")", "phone: connectionStateDidChange(state: \"disconnected\")"]}, {"expect": "sequence", "device": "phone", "within": "10s", "callbacks": ["connectionStateDidChange(state: \"connected\")"]}"#))
            let result = await run(fixture)
            #expect(result.outcome == .passed, "\(ConsoleReport.scenario(result))")
            // Deterministic on the virtual clock: the same every time.
            #expect(await run(fixture).outcome == .passed)
        }

        @Test("a callback that never comes makes no fault; arguments are matched")
        func onlyItsCallback() async throws {
            let fixture = try parseFixture(Self.fixture(
                when: #""pad: connectionStateDidChange(state: \"disconnected\")""#,
                afterLogin: #"{"expect": "absent", "callbacks": ["phone: connectionStateDidChange(state: \"disconnected\")"], "for": "1m"}"#))
            let result = await run(fixture)
            #expect(result.outcome == .passed, "\(ConsoleReport.scenario(result))")
        }

        /// Refused: checked with the other invalid fixtures (`InvalidFixtureTests`).
        static let refusals: [(name: String, text: String, path: String, reason: String)] = [
            ("a fault's callback on an unknown device", fixture(when: #""watch: connectionStateDidChange""#, afterLogin: #"{"expect": "state", "device": "pad", "loggedIn": true}"#),
             "steps[1].when", "unknown device \"watch\""),
            ("a callback trigger on a kick", miniFixture(steps: #"[{"control": "kick", "user": "alice", "code": 206, "when": "phone: x"}, {"expect": "state", "device": "phone", "loggedIn": false}]"#),
             "steps[0].when", "unknown key"),
        ]
    }
}
