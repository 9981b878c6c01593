import Foundation
import IMockClient
import IMockCommon
import IMockHarness
import Testing

extension HarnessTests {
    /// The catalogue's OpenIM fixtures (O rules) with the reference clients speaking OpenIM's
    /// gateway (`imock run --transport openim`): login in the upgrade, gob + gzip frames, kicks
    /// as 2002 — the same callbacks as over the imock protocol.
    @Suite("OpenIM fixtures over the OpenIM gateway")
    struct OpenIMTransportTests {
        static let openIMFixtures = catalogueFiles.filter { $0.contains("Fixtures/O/") }

        @Test("every O fixture passes over the gateway", arguments: openIMFixtures)
        func fixturePassesOverTheGateway(file: String) async throws {
            let fixture = try loadFixture(file)
            var settings = RunSettings()
            settings.transport = .openIM
            let result = await run(fixture, settings: settings)
            #expect(result.outcome == .passed, "\(ConsoleReport.scenario(result))")
        }

        @Test("the O fixtures are there") func present() {
            #expect(Self.openIMFixtures.count >= 9)
        }

        @Test("openim-sdk-core 0.1.11 through adapters/openim-python passes its declared subset (skipped without it)")
        func pythonSDKSubset() async throws {
            guard await openIMPythonClientAvailable() else { return }
            try await expectAdapterPassesItsSubset("openim-python", script: "openim_adapter.py", atLeast: 5)
        }
    }
}
