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

        @Test("every Easemob-profile fixture passes over msync, or fails as its msync expected failure says", arguments: easemobFiles)
        func fixtureOverMsync(file: String) async throws {
            let fixture = try loadFixture(file)
            var settings = RunSettings()
            settings.transport = .msync
            let result = await run(fixture, settings: settings)
            // What msync cannot carry (docs/PROTOCOL-MSYNC.md § Limits) is marked in the fixture,
            // scoped to msync: a change that makes one pass is an XPASS, one that fails elsewhere a FAIL.
            let marked = !fixture.expectedFailures(transport: .msync, adapters: ["reference"]).isEmpty
            let expected: ScenarioOutcome = marked ? .expectedFailure : .passed
            #expect(result.outcome == expected, "\(ConsoleReport.scenario(result))")
        }

        @Test("the Easemob families are all there; every mark is scoped: msync's gaps to msync, the Web SDK's differences to easemob-web")
        func coverage() throws {
            #expect(Self.easemobFiles.count >= 30)
            let marked = try Self.easemobFiles.map(loadFixture).filter { !$0.expectedFailures.isEmpty }
            #expect(marked.count >= 10)
            for fixture in marked {
                #expect(fixture.expectedFailures.allSatisfy { $0.transport == .msync || $0.adapter == "easemob-web" }, "\(fixture.file)")
            }
        }
    }
}
