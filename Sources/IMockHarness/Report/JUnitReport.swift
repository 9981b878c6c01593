import IMockCommon

/// JUnit XML (`--junit`): one `<testsuite>` per rule family (S, E, C, O, Z, X), one `<testcase>`
/// per fixture in the family of its first rule; failures carry the console divergence report.
public enum JUnitReport {
    /// The XML document for `results`.
    public static func render(_ results: [ScenarioResult]) -> String {
        let families = ["S", "E", "C", "O", "Z", "X"]
        var suites: [String] = []
        var totals = (tests: 0, failures: 0, skipped: 0, time: 0.0)
        for family in families {
            let members = results.filter { ($0.rules.first?.id.first).map(String.init) == family }
            guard !members.isEmpty else { continue }
            let failures = members.filter { $0.outcome.isFailure }.count
            let skipped = members.filter { $0.outcome == .skipped }.count
            let time = Double(members.reduce(0) { $0 + $1.wallMs }) / 1000
            totals = (totals.tests + members.count, totals.failures + failures, totals.skipped + skipped, totals.time + time)
            var suite = "  <testsuite name=\"imock.\(family)\" tests=\"\(members.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
            for result in members { suite += testcase(result, family: family) }
            suite += "  </testsuite>\n"
            suites.append(suite)
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"imock conformance\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"0\" skipped=\"\(totals.skipped)\" time=\"\(seconds(totals.time))\">\n"
            + suites.joined() + "</testsuites>\n"
    }

    /// The XML document of a run stopped before any fixture ran — an invalid fixture, a server
    /// that cannot be used — so that CI shows why: one `<testcase>` per problem in the suite
    /// `imock.<suite>`, each with an `<error>` of `type` carrying the message.
    public static func stopped(suite: String, type: String, problems: [(name: String, message: String)]) -> String {
        var cases = ""
        for problem in problems {
            cases += "    <testcase name=\"\(XMLText.escape(problem.name))\" classname=\"imock.\(suite)\" time=\"0.000\">\n"
                + "      <error message=\"\(XMLText.escape(problem.message))\" type=\"\(type)\">\(XMLText.escape(problem.message))</error>\n"
                + "    </testcase>\n"
        }
        let counts = "tests=\"\(problems.count)\" failures=\"0\" errors=\"\(problems.count)\" skipped=\"0\" time=\"0.000\""
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"imock conformance\" \(counts)>\n"
            + "  <testsuite name=\"imock.\(suite)\" \(counts)>\n" + cases + "  </testsuite>\n</testsuites>\n"
    }

    private static func testcase(_ result: ScenarioResult, family: String) -> String {
        let name = XMLText.escape(result.file)
        let classname = XMLText.escape("imock.\(family)." + result.rules.map(\.id).joined(separator: "_"))
        var xml = "    <testcase name=\"\(name)\" classname=\"\(classname)\" time=\"\(seconds(Double(result.wallMs) / 1000))\">\n"
        switch result.outcome {
        case .failed, .unexpectedPass:
            let message = result.outcome == .unexpectedPass
                ? "expected failure passed: remove \"expectedFailure\" (\(result.note ?? ""))"
                : result.divergence.map { "\($0.stepPath): \($0.failure.message)" } ?? "failed"
            xml += "      <failure message=\"\(XMLText.escape(message))\" type=\"\(result.outcome.rawValue)\">"
                + XMLText.escape(ConsoleReport.scenario(result)) + "</failure>\n"
        case .skipped:
            xml += "      <skipped message=\"\(XMLText.escape(result.note ?? ""))\"/>\n"
        case .expectedFailure:
            xml += "      <system-out>\(XMLText.escape("expected failure: \(result.note ?? "")\n" + ConsoleReport.scenario(result)))</system-out>\n"
        case .passed:
            break
        }
        return xml + "    </testcase>\n"
    }

    private static func seconds(_ value: Double) -> String { DecimalText.fixed(value, digits: 3) }
}
