import Foundation
import IMockBench
import IMockCore
import IMockTestSupport
import Synchronization
import Testing

/// Every scenario at a tiny size, with --compare and --json: the output must be well formed.
/// No figure is checked against a speed (the machine decides those).
@Suite("imock bench: every scenario, tiny")
struct ScenarioSmokeTests {
    private static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    @Test("each scenario prints JSON objects with their fields; the comparison follows")
    func everyScenario() async throws {
        var options = BenchOptions.tiny
        options.json = true
        options.compare = true
        options.imockExecutable = try IMockProcess.binaryPath()
        options.pythonMock = Self.repositoryRoot + "/bench/python_mock.py"
        options.fixtures = Self.repositoryRoot + "/Fixtures"
        let lines = Mutex<[String]>([])
        let status = await BenchRunner.run(options, environment: ProcessInfo.processInfo.environment) { line in
            lines.withLock { $0.append(line) }
        }
        let output = lines.withLock { $0 }
        #expect(status == 0, "\(output.joined(separator: "\n"))")
        let objects = try output.map { try JSONValue.parse($0) }

        let machine = try #require(objects.first)
        #expect(machine["bench"]?.stringValue == "imock")
        #expect(machine["cores"]?.intValue != nil)

        let reports = objects.filter { $0["scenario"] != nil }
        for scenario in BenchScenarioName.allCases {
            let runs = reports.filter { $0["scenario"]?.stringValue == scenario.rawValue }
            let own = try #require(
                runs.first { ["imock", "in-process"].contains($0["server"]?.stringValue) }, "no report of \(scenario.rawValue)")
            #expect(own["skipped"]?.isNull == true, "\(scenario.rawValue) skipped: \(own["skipped"] ?? .null)")
            #expect(own["load"]?.stringValue?.isEmpty == false)
            let parts = try #require(own["parts"]?.arrayValue)
            #expect(!parts.isEmpty)
            for part in parts {
                let members = part.objectValue ?? []
                #expect(part["part"]?.stringValue?.isEmpty == false)
                #expect(part["notes"]?.arrayValue != nil)
                #expect(members.contains { $0.value.intValue != nil || $0.key.hasSuffix("Ms") || $0.key == "perSecond" })
            }
        }
        let names = { (scenario: String) in
            Set(reports.filter { $0["scenario"]?.stringValue == scenario && $0["server"]?.stringValue == "imock" }
                .flatMap { $0["parts"]?.arrayValue ?? [] }.compactMap { $0["part"]?.stringValue })
        }
        #expect(names("rest") == ["mix", "app-token", "register", "register-batch-60", "user-token", "get-user"])
        #expect(names("login-storm").isSuperset(of: ["distinct", "one-user"]))
        #expect(names("kick") == ["login", "rest-disconnect", "policy", "app-disable", "one-user-disconnect"])
        #expect(names("messages") == ["pairs", "offline-drain"])
        #expect(names("fleet") == ["hold"])

        // Every device of the tiny runs logged in and every kick arrived.
        for report in reports where report["server"]?.stringValue == "imock" {
            for part in report["parts"]?.arrayValue ?? [] {
                let notes = part["notes"]?.arrayValue ?? []
                #expect(notes.isEmpty, "\(report["scenario"] ?? .null): \(part)")
            }
        }

        // The baselines ran (or said why not), and the comparison lines follow.
        #expect(reports.contains { $0["server"]?.stringValue == "python" })
        let comparisons = objects.filter { $0["comparison"] != nil }
        #expect(!comparisons.isEmpty)
        for comparison in comparisons {
            #expect(comparison["part"]?.stringValue != nil)
            #expect(["imock", "in-process"].contains(comparison["servers"]?.arrayValue?.first?["server"]?.stringValue))
            #expect(comparison["ratios"]?.arrayValue != nil)
        }
    }
}
