import FoundationEssentials
import IMockCore
import IMockHarness
import Testing

@Suite("Smoke")
struct SmokeTests {
    @Test func e10() async throws {
        let bytes = Array(try String(contentsOfFile: "Fixtures/E/E10-device-limit-kicks-earliest.json", encoding: .utf8).utf8)
        let fixture = try FixtureParser.parse(bytes, file: "E10")
        let result = await ScenarioRun(fixture: fixture, settings: RunSettings(), index: 0).run()
        print(result.outcome, result.wallMs, result.divergence.map { "\($0.stepPath) \($0.failure)" } ?? "")
        for event in result.timeline { print(event) }
        #expect(result.outcome == .passed)
    }
}
