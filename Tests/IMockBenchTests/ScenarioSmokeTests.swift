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

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }

    @Test("each scenario prints JSON objects with their fields; the comparison follows")
    func everyScenario() async throws {
        var options = BenchConfiguration.tiny
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
        // Every figure is a number, no rate is negative, a p50 is at most its p99. (A timed part
        // may complete nothing at this size on a loaded machine: rest's per-call rates can be 0.)
        for report in reports {
            for part in report["parts"]?.arrayValue ?? [] {
                let context = "\(report["scenario"] ?? .null)/\(report["dialect"] ?? .null)/\(part["part"] ?? .null)"
                for (key, value) in part.objectValue ?? [] where key != "part" && key != "notes" {
                    #expect(Self.number(value) != nil, "\(context): \(key) is \(value)")
                }
                if let rate = part["perSecond"] { #expect((Self.number(rate) ?? -1) >= 0, "\(context): \(rate)") }
                if let p50 = part["p50Ms"].flatMap(Self.number), let p99 = part["p99Ms"].flatMap(Self.number) {
                    #expect(0 <= p50 && p50 <= p99, "\(context): p50 \(p50), p99 \(p99)")
                }
            }
        }

        // login-storm and messages run in every dialect against imock, in imock JSON only
        // against the Python baseline; every device logged in and every message was drained.
        for scenario in ["login-storm", "messages"] {
            let dialects = { (server: String) in
                reports.filter { $0["scenario"]?.stringValue == scenario && $0["server"]?.stringValue == server }
                    .compactMap { $0["dialect"]?.stringValue }
            }
            #expect(dialects("imock") == ["imock-json", "msync", "openim"], "\(scenario)")
            #expect(dialects("python") == ["imock-json"], "\(scenario)")
        }
        for report in reports where report["server"]?.stringValue == "imock" {
            for part in report["parts"]?.arrayValue ?? [] {
                switch (report["scenario"]?.stringValue, part["part"]?.stringValue) {
                case ("login-storm", _):
                    #expect(part["loggedIn"]?.intValue == Int64(options.devices), "\(report["dialect"] ?? .null): \(part)")
                    #expect((part["perSecond"].flatMap(Self.number) ?? 0) > 0, "\(report["dialect"] ?? .null): \(part)")
                    if part["part"]?.stringValue?.hasSuffix("-resume") == true {
                        #expect(part["resumed"]?.intValue == Int64(options.devices), "every reconnect resumes: \(part)")
                    }
                case ("messages", "offline-drain"):
                    #expect(part["messages"]?.intValue == Int64(options.offline), "\(report["dialect"] ?? .null): \(part)")
                    #expect((part["perSecond"].flatMap(Self.number) ?? 0) > 0, "\(report["dialect"] ?? .null): \(part)")
                default:
                    break
                }
            }
        }
        let names = { (scenario: String) in
            Set(reports.filter { $0["scenario"]?.stringValue == scenario && $0["server"]?.stringValue == "imock" }
                .flatMap { $0["parts"]?.arrayValue ?? [] }.compactMap { $0["part"]?.stringValue })
        }
        #expect(names("rest") == ["mix", "app-token", "register", "register-batch-60", "user-token", "get-user"])
        #expect(names("login-storm").isSuperset(of: ["distinct", "one-user"]))
        if names("login-storm").contains("tls") {
            #expect(names("login-storm").isSuperset(of: ["tls-resume", "tls12", "tls12-resume"]), "TLS 1.3 and 1.2, full and resumed")
        }
        #expect(names("kick") == ["login", "rest-disconnect", "policy", "app-disable", "one-user-disconnect"])
        #expect(names("messages") == ["pairs", "offline-drain"])
        #expect(names("fleet") == ["hold"])
        let storeParts = reports.first { $0["scenario"]?.stringValue == "store-cost" }?["parts"]?.arrayValue ?? []
        #expect(storeParts.compactMap { $0["part"]?.stringValue } == ["memory", "data"])

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
