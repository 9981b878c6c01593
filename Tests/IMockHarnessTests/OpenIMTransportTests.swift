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
            let check = "import importlib.metadata as m; assert m.version(\"openim-sdk-core\") == \"0.1.11\""
            guard await available("python3", python: check) else {
                print("skipped: openim-sdk-core 0.1.11 not installed (pip install openim-sdk-core==0.1.11; .ci/run does)")
                return
            }
            let subset = try String(contentsOfFile: packageRoot + "/adapters/openim-python/subset.txt", encoding: .utf8)
                .split(separator: "\n").map { packageRoot + "/" + $0 }
            #expect(subset.count >= 6)
            var options = RunOptions()
            options.paths = subset
            options.settings.adapters["openim"] = lowPriority + ["python3", packageRoot + "/adapters/openim-python/openim_adapter.py"]
            options.settings.adapterOverride = "openim"
            let lines = Lines()
            let status = await RunCommand.run(options) { lines.append($0) }
            #expect(status == 0, "\(lines.all.joined(separator: "\n"))")
            #expect(lines.all.filter { $0.contains("PASS") }.count == subset.count, "\(lines.all.joined(separator: "\n"))")
        }

        @Test("--transport is parsed and checked")
        func option() throws {
            #expect(try RunOptions.parse(["--transport", "openim"], environment: [:]).settings.transport == .openIM)
            #expect(try RunOptions.parse([], environment: [:]).settings.transport == .imockJSON)
            #expect(throws: UsageError.self) { try RunOptions.parse(["--transport", "msync2"], environment: [:]) }
        }
    }
}
