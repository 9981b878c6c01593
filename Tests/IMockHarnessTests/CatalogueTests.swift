import IMockClient
import IMockHarness
import Testing

extension HarnessTests {
    /// The whole catalogue replayed in process on the virtual clock, and its coverage.
    @Suite("The fixture catalogue")
    struct CatalogueTests {
        @Test("every fixture passes (or fails as its expected-failure mark says)", arguments: catalogueFiles)
        func fixturePasses(file: String) async throws {
            let fixture = try loadFixture(file)
            let result = await run(fixture)
            let marked = !fixture.expectedFailures(transport: .imockJSON, adapters: ["reference"]).isEmpty
            let expected: ScenarioOutcome = marked ? .expectedFailure : .passed
            #expect(result.outcome == expected, "\(ConsoleReport.scenario(result))")
        }

        @Test("every rule id of CONFORMANCE.md has a fixture")
        func coverage() throws {
            let fixtures = try catalogueFiles.map(loadFixture)
            #expect(fixtures.count >= RuleCatalogue.rules.count)
            let (text, missing) = Coverage.report(fixtures)
            #expect(missing.isEmpty, "\(text)")
            #expect(text.contains("E5-renew-token.json (xfail on msync, through easemob-web)"), "\(text)")
            var marked = try parseFixture(miniFixture(extra: #", "expectedFailure": [{"reason": "r", "step": 1}, {"reason": "r", "step": 1, "transport": "msync"}]"#))
            marked.file = "Fixtures/E/E3-marked.json"
            #expect(Coverage.report([marked]).text.contains("E3-marked.json (xfail)\n"))
            for family in ["S", "E", "C", "O", "Z", "X"] {
                #expect(fixtures.contains { $0.file.contains("Fixtures/\(family)/") }, "no fixture in Fixtures/\(family)")
            }
        }

        @Test("fixtures cite their seed section in every rule reference")
        func citations() throws {
            for fixture in try catalogueFiles.map(loadFixture) {
                for rule in fixture.rules {
                    #expect(rule.source.contains("§") || rule.source.hasPrefix("00"), "\(fixture.file): \(rule.id) cites \(rule.source)")
                }
            }
        }
    }
}
