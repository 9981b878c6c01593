import IMockClient
import IMockHarness
import Testing

extension HarnessTests {
    /// The Easemob-profile fixtures replayed with the reference clients speaking msync
    /// (`imock run --transport msync`), so the catalogue checks both dialects.
    @Suite("The fixture catalogue over msync")
    struct MsyncCatalogueTests {
        /// Fixtures whose every device uses the Easemob profile.
        static let easemobFiles: [String] = catalogueFiles.filter { file in
            guard let fixture = try? loadFixture(file) else { return false }
            return fixture.devices.allSatisfy { $0.profile == .easemob }
        }

        /// What msync cannot carry, by fixture (docs/PROTOCOL-MSYNC.md § Limits): these run too
        /// and must still fail, so a change that makes one pass is noticed.
        static let gaps: [String: String] = [
            "Fixtures/C/C1-connection-lifecycle-order.json": "msync has no data-sync frames (syncDataStart/Finished)",
            "Fixtures/C/C11-data-sync-failure.json": "msync has no data-sync frames (syncDataStart/Finished)",
            "Fixtures/E/E4-data-sync-per-type.json": "msync has no data-sync frames (syncDataStart/Finished)",
            "Fixtures/E/E5-renew-token.json": "msync renews tokens over REST; the reference client's msync wire has no HTTP",
            "Fixtures/E/E8-logout-unbind-fails.json": "msync's LOGOUT has no push-token unbinding",
            "Fixtures/C/C6-account-callbacks-clear-the-login.json": "the 206 STATISTIC carries the new device's extension, not its name",
            "Fixtures/E/E10-device-limit-kicks-earliest.json": "the 206 STATISTIC carries the new device's extension, not its name",
            "Fixtures/E/E11-device-description.json": "the 206 STATISTIC carries the new device's extension, not its name",
            "Fixtures/S/S4-custom-platform-groups.json": "the 206 STATISTIC carries the new device's extension, not its name",
            "Fixtures/S/S4-single-device-new-kicks-old.json": "the 206 STATISTIC carries the new device's extension, not its name",
        ]

        @Test("every Easemob-profile fixture passes over msync, or fails for the documented gap", arguments: easemobFiles)
        func fixtureOverMsync(file: String) async throws {
            let fixture = try loadFixture(file)
            var settings = RunSettings()
            settings.transport = .msync
            let result = await run(fixture, settings: settings)
            if let gap = Self.gaps[file] {
                #expect(result.outcome == .failed, "\(file) passes over msync now; remove its gap (\(gap))")
            } else {
                let marked = !fixture.expectedFailures(transport: .msync, adapters: ["reference"]).isEmpty
                let expected: ScenarioOutcome = marked ? .expectedFailure : .passed
                #expect(result.outcome == expected, "\(ConsoleReport.scenario(result))")
            }
        }

        @Test("the Easemob families are all there and every gap names a fixture of them")
        func coverage() {
            #expect(Self.easemobFiles.count >= 30)
            for file in Self.gaps.keys { #expect(Self.easemobFiles.contains(file), "\(file)") }
        }
    }
}
