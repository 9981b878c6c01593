import IMockHarness
import Testing

extension HarnessTests {
    /// The expected-failure mark: a failing marked fixture is fine; a passing one fails the run.
    @Suite("Expected failures")
    struct ExpectedFailureTests {
        @Test("a marked fixture that fails is an expected failure; one that passes must lose its mark")
        func marks() async throws {
            let failing = try parseFixture(miniFixture(
                steps: #"[{"do": "login", "device": "phone"}, {"expect": "sequence", "device": "phone", "callbacks": ["neverComes"]}]"#,
                extra: #", "expectedFailure": {"reason": "the client has no such callback yet"}"#))
            let failed = await run(failing)
            #expect(failed.outcome == .expectedFailure)
            #expect(!failed.outcome.isFailure)
            #expect(failed.note == "the client has no such callback yet")

            let passing = try parseFixture(miniFixture(extra: #", "expectedFailure": {"reason": "fixed meanwhile"}"#))
            let passed = await run(passing)
            #expect(passed.outcome == .unexpectedPass)
            #expect(passed.outcome.isFailure)
            #expect(ConsoleReport.scenario(passed).contains("remove \"expectedFailure\""))
        }

        @Test("a failure names the step, what was expected and what was observed, at its virtual time")
        func divergenceReport() async throws {
            let fixture = try parseFixture(miniFixture(steps: """
                [{"do": "login", "device": "phone"}, {"advance": "5m"},
                 {"expect": "sequence", "device": "phone", "since": "start", "gaps": false, "callbacks": ["loginCompletion", "onDatabaseOpened"]}]
                """))
            let result = await run(fixture)
            #expect(result.outcome == .failed)
            let divergence = try #require(result.divergence)
            #expect(divergence.stepPath == "steps[2]")
            #expect(divergence.atMs - result.startMs == 300_000)
            #expect(divergence.failure.device == "phone")
            let text = ConsoleReport.scenario(result)
            #expect(text.contains("first divergence at steps[2]"))
            #expect(text.contains("✗ phone: onDatabaseOpened"))
            #expect(text.contains("FIRST DIVERGENCE"))
            #expect(text.contains("+5m"))
        }
    }
}
