import IMockCommon
import Testing

@testable import IMockHarness

extension HarnessTests {
    /// With `--seed-random`, what the harness draws itself repeats from run to run: the run id
    /// (the apps' names on a shared server), the in-process server's admin secret and the apps'
    /// client secrets.
    @Suite("Seeded runs repeat the harness's own draws")
    struct SeededRunTests {
        @Test("the run id and each fixture's stream come from the seed")
        func settings() {
            var first = RunSettings()
            first.seedRandom = 42
            var second = RunSettings()
            second.seedRandom = 42
            var other = RunSettings()
            other.seedRandom = 43
            #expect(first.runID == second.runID)
            #expect(first.runID != other.runID)
            #expect(first.random(forFixture: 3).next() == second.random(forFixture: 3).next())
            #expect(first.random(forFixture: 3).next() != first.random(forFixture: 4).next())
            #expect(first.random(forFixture: 0).next() != other.random(forFixture: 0).next())
            // Without a seed the run id is drawn once per run and kept.
            let unseeded = RunSettings()
            #expect(unseeded.runID == unseeded.runID)
            #expect(!unseeded.random(forFixture: 0).isSeeded)
        }

        @Test("two in-process runs with one seed use the same admin and app secrets")
        func secrets() async throws {
            var settings = RunSettings()
            settings.seedRandom = 7
            let fixture = try parseFixture(miniFixture())
            var drawn: [(admin: String, app: String)] = []
            for _ in 0..<2 {
                let scenario = ScenarioRun(fixture: fixture, settings: settings, index: 0)
                let result = await scenario.run()
                #expect(result.outcome == .passed, "\(ConsoleReport.scenario(result))")
                drawn.append((scenario.server.link.adminSecret, scenario.credentials["chat"]?.secret ?? ""))
            }
            #expect(drawn[0].admin == drawn[1].admin && drawn[0].app == drawn[1].app)
            #expect(drawn[0].admin.hasPrefix("harness-") && drawn[0].app.hasPrefix("secret-"))
            let another = ScenarioRun(fixture: fixture, settings: settings, index: 1)
            _ = await another.run()
            #expect(another.credentials["chat"]?.secret != drawn[0].app)
        }
    }
}
