import Foundation
import IMockCore
@testable import IMockHarness
import IMockTestSupport
import Testing

extension HarnessTests {
    /// The reports: JSON (parsed back), JUnit (read by a real JUnit consumer, PyPI `junitparser`),
    /// HTML (self-contained, rendered by headless Chromium).
    @Suite("Reports")
    struct ReportTests {
        /// One passing, one failing, one expected-failure scenario with kicks, faults and clock jumps.
        static func results() async throws -> [ScenarioResult] {
            let passing = try loadFixture("Fixtures/E/E10-device-limit-kicks-earliest.json")
            var failing = try loadFixture("Fixtures/C/C2-weak-network-reconnects-by-itself.json")
            failing = try #require(FixtureMutator.mutants(of: failing, .swappedOrder).first?.fixture)
            failing.name = "C2 (mutated: swapped order) — shows a failure"
            let mutant = try #require(FixtureMutator.mutants(of: try loadFixture("Fixtures/E/E5-renew-token.json"), .wrongCode).first)
            var expected = mutant.fixture
            let step = try #require(Int(mutant.step.dropFirst("steps[".count).dropLast()))
            expected.expectedFailures = [ExpectedFailure(reason: "demonstration of an expected failure", step: step)]
            return [await run(passing), await run(failing), await run(expected)]
        }

        @Test("the JSON report parses and carries outcomes, divergence and timeline")
        func json() async throws {
            let results = try await Self.results()
            let json = try JSONValue.parse(JSONReport.render(results, settings: RunSettings()))
            #expect(json["version"] == 1)
            #expect(json["summary"]?["total"] == 3)
            #expect(json["summary"]?["failed"] == 1)
            #expect(json["summary"]?["expectedFailures"] == 1)
            let scenarios = try #require(json["scenarios"]?.arrayValue)
            #expect(scenarios.map { $0["outcome"]?.stringValue } == ["passed", "failed", "expectedFailure"])
            #expect(scenarios[1]["divergence"]?["path"]?.stringValue?.hasPrefix("steps[") == true)
            let kinds = Set(scenarios.flatMap { $0["timeline"]?.arrayValue ?? [] }.compactMap { $0["kind"]?.stringValue })
            #expect(kinds.isSuperset(of: ["step", "callback", "server", "clock", "check", "fault"]))
        }

        @Test("JUnit XML is read by junitparser (skipped without python3 + junitparser)")
        func junit() async throws {
            guard await available("python3", python: "import junitparser") else {
                print("skipped: python3 with junitparser not installed (pip install junitparser)")
                return
            }
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/report.xml"
            try JUnitReport.render(try await Self.results()).write(toFile: path, atomically: true, encoding: .utf8)
            let script = """
                import sys
                from junitparser import JUnitXml, Failure
                xml = JUnitXml.fromfile(sys.argv[1])
                cases = [(case.name, [type(r).__name__ for r in case.result]) for suite in xml for case in suite]
                print(xml.tests, xml.failures, xml.skipped)
                for name, results in cases: print(name, results)
                """
            let output = try await ExternalCommand.run(lowPriority[0], Array(lowPriority.dropFirst()) + ["python3", "-c", script, path])
            #expect(output.status == 0, "\(output.stderr)")
            let lines = output.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "3 1 0", "\(output.stdout)")
            #expect(lines.contains { $0.contains("C2-weak-network") && $0.contains("Failure") }, "\(output.stdout)")
            #expect(lines.contains { $0.contains("E10-device-limit") && $0.hasSuffix("[]") }, "\(output.stdout)")
        }

        @Test("a wide, long diagram scrolls in its box and repeats the lifelines' names; CJK rule names ask for CJK fonts")
        func wideDiagramAndCJK() async throws {
            var result = await run(try loadFixture("Fixtures/E/E10-device-limit-kicks-earliest.json"))
            result.devices += (1...5).map { "extra-device-\($0)" }
            while result.timeline.count < 45 { result.timeline += result.timeline }
            result.rules[0].source = "多设备登录：设备数超过上限时踢掉最早登录的设备"
            let html = HTMLReport.render([result])
            #expect(html.contains("<div class=\"diagram\"><svg"), "the diagram sits in a scrolling box")
            #expect(html.contains(".diagram{overflow-x:auto;max-width:100%"))
            let repeats = html.components(separatedBy: "class=\"repeat\"").count - 1
            let bands = (result.timeline.count - 1) / 20
            #expect(repeats == bands * (result.devices.count + 2), "every lifeline named again every 20 rows: \(repeats)")
            #expect(html.contains("Noto Sans CJK SC") && html.contains("Microsoft YaHei") && html.contains("PingFang SC"))
            #expect(html.contains("多设备登录：设备数超过上限时踢掉最早登录的设备"))
        }

        @Test("labels are cut by display width: a CJK character takes two columns")
        func displayWidth() {
            #expect(DisplayWidth.truncate("abcdef", to: 6) == "abcdef")
            #expect(DisplayWidth.truncate("abcdefg", to: 6) == "abcde…")
            #expect(DisplayWidth.truncate("多设备登录", to: 10) == "多设备登录")
            #expect(DisplayWidth.truncate("多设备登录超限", to: 10) == "多设备登…")
            #expect(DisplayWidth.truncate("a多b", to: 4) == "a多b")
        }

        @Test("the HTML report is self-contained and renders in headless Chromium (skipped without chromium)")
        func html() async throws {
            let html = HTMLReport.render(try await Self.results())
            #expect(html.contains("<svg"))
            #expect(!html.contains("http://") || !html.contains("src=\"http"))
            #expect(!html.contains("<script"))
            #expect(!html.contains("https://"))
            #expect(html.contains("first divergence"))
            guard await available("chromium") else {
                print("skipped: chromium not installed (apt-get install -y chromium)")
                return
            }
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try html.write(toFile: directory + "/report.html", atomically: true, encoding: .utf8)
            let output = try await ExternalCommand.run(lowPriority[0], Array(lowPriority.dropFirst()) + ["chromium",
                "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", "file://\(directory)/report.html",
            ])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("<svg"), "chromium produced no DOM")
            #expect(output.stdout.contains("imock conformance run"))
        }
    }
}
