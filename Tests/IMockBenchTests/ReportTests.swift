import IMockBench
import IMockCore
import Testing

@Suite("imock bench: reports and comparisons")
struct ReportTests {
    private func report(_ server: String, rate: Double, p99: Double) -> ScenarioReport {
        ScenarioReport(
            scenario: "login-storm", server: server, dialect: "imock-json", load: "test", size: [("devices", 10)],
            parts: [
                BenchPart(
                    name: "distinct",
                    figures: [
                        BenchFigure(key: "perSecond", label: "logins/s", value: rate, better: .higher),
                        BenchFigure(key: "p99Ms", label: "p99 ms", value: p99, better: .lower),
                        BenchFigure(key: "loggedIn", label: "loggedIn", value: 10, better: nil),
                    ])
            ])
    }

    @Test("a report is one table row per part and one JSON object with its figures as members")
    func rendering() throws {
        let report = report("imock", rate: 12_345.6, p99: 1.234)
        #expect(report.rows == ["login-storm/distinct       imock imock-json   logins/s 12,346  p99 ms 1.23  loggedIn 10"])
        let json = try JSONValue.parse(report.json.encodedString)
        #expect(json["scenario"]?.stringValue == "login-storm")
        #expect(json["size"]?["devices"]?.intValue == 10)
        let part = try #require(json["parts"]?.arrayValue?.first)
        #expect(part["part"]?.stringValue == "distinct")
        #expect(part["perSecond"] == .double(12_345.6))
        #expect(part["loggedIn"]?.intValue == 10)
    }

    @Test("medians across rounds, and ratios that say how many times better imock did")
    func comparison() {
        let reports = [
            report("imock", rate: 100, p99: 2), report("python", rate: 20, p99: 8),
            report("imock", rate: 300, p99: 4), report("python", rate: 30, p99: 10),
            report("imock", rate: 200, p99: 3), report("python", rate: 50, p99: 12),
        ]
        let comparison = Comparison(reports)
        #expect(comparison.lines.count == 1)
        let line = comparison.lines[0]
        #expect(line.servers.map(\.server) == ["imock", "python"])
        #expect(line.servers[0].medians.map(\.value) == [200, 3, 10])
        #expect(line.servers[1].medians.map(\.value) == [30, 10, 10])
        #expect(line.ratios.count == 1)
        #expect(line.ratios[0].baseline == "python")
        #expect(line.ratios[0].figures.map(\.key) == ["perSecond", "p99Ms"])
        #expect(line.ratios[0].figures.map(\.ratio) == [200.0 / 30, 10.0 / 3])
        #expect(comparison.rows.last == "login-storm/distinct       imock/python       logins/s 6.67×  p99 ms 3.33×")
    }
}
