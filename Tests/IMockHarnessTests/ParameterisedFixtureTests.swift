import Foundation
import IMockHarness
import Testing

extension HarnessTests {
    /// `parameters`: one fixture × a table of values, each row a case of its own; placeholders
    /// checked with the path named (docs/FIXTURES.md § Parameterised fixtures).
    @Suite("Parameterised fixtures")
    struct ParameterisedFixtureTests {
        /// A kick with `${code}` expecting the forced logout with `${expected}`.
        static let kickSteps = #"""
            [{"do": "login", "device": "phone"},
             {"control": "kick", "user": "alice", "code": "${code}"},
             {"expect": "sequence", "device": "phone", "callbacks": ["userAccountDidForcedToLogout(code: ${expected})"]}]
            """#

        static func kickFixture(_ rows: String) -> String {
            miniFixture(steps: kickSteps, extra: #", "parameters": \#(rows)"#)
        }

        @Test("each row is a case named name[row], the values substituted with their type")
        func casesPerRow() throws {
            let cases = try FixtureParser.parseCases(
                Array(Self.kickFixture(#"[{"code": 216, "expected": 216}, {"code": 217, "expected": 217}]"#).utf8), file: "kick.json")
            #expect(cases.map(\.name) == ["mini[code=216, expected=216]", "mini[code=217, expected=217]"])
            #expect(cases.map(\.parameters) == ["code=216, expected=216", "code=217, expected=217"])
            #expect(cases.map(\.steps[1].summary) == ["control kick alice 216", "control kick alice 217"])
        }

        @Test("imock run reports each row on its own: a wrong row fails alone")
        func runPerRow() async throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let file = directory + "/kick.json"
            try Self.kickFixture(#"[{"code": 216, "expected": 216}, {"code": 217, "expected": 216}]"#)
                .write(toFile: file, atomically: true, encoding: .utf8)
            var configuration = RunConfiguration()
            configuration.paths = [file]
            let printed = Lines()
            let status = await ConformanceRun.run(configuration) { printed.append($0) }
            let output = printed.all.joined(separator: "\n")
            #expect(status == 1, "\(output)")
            #expect(output.contains("PASS   \(file)[code=216, expected=216]"), "\(output)")
            #expect(output.contains("FAIL   \(file)[code=217, expected=216]"), "\(output)")
            #expect(output.contains("1 passed, 1 failed"), "\(output)")
        }

        /// Refused tables and placeholders: checked with the other invalid fixtures
        /// (`InvalidFixtureTests`).
        static let refusals: [(name: String, text: String, path: String, reason: String)] = [
            ("unknown placeholder", kickFixture(#"[{"code": 216}]"#), "steps[2].callbacks[0]", "unknown parameter ${expected} (parameters: code)"),
            ("placeholder without parameters", miniFixture(steps: kickSteps), "steps[1].code", "unknown parameter ${code} (the fixture has no parameters, and no step captures it)"),
            ("rows naming different parameters", kickFixture(#"[{"code": 216, "expected": 216}, {"code": 217}]"#), "parameters[1]", "has code but parameters[0] has code, expected"),
            ("a parameter no step uses", kickFixture(#"[{"code": 216, "expected": 216, "spare": 1}]"#), "parameters[0].spare", "no step uses ${spare}"),
            ("a row's value the step refuses", kickFixture(#"[{"code": 216, "expected": 216}, {"code": "x", "expected": 1}]"#), "steps[1].code", "(parameters[1]: code=x, expected=1)"),
            ("an empty table", kickFixture("[]"), "parameters", "must list at least one row"),
            ("a row that is not an object", kickFixture("[206]"), "parameters[0]", "must be an object"),
            ("a repeated row", kickFixture(#"[{"code": 216, "expected": 216}, {"code": 216, "expected": 216}]"#), "parameters[1]", "repeats parameters[0]"),
            ("a bad name", kickFixture(#"[{"code": 216, "expected": 216, "2x": 1}]"#), "parameters[0].2x", "a parameter name is"),
            ("an object inside a longer string", kickFixture(#"[{"code": 216, "expected": {"a": 1}}]"#), "steps[2].callbacks[0]", "only a string that is just \"${expected}\""),
        ]

        @Test("imock run refuses an unknown placeholder with 65, naming file and path, and runs nothing")
        func exit65() async throws {
            let xml = try await expectRunRefuses(["bad.json": Self.refusals[0].text])
            #expect(xml.contains("bad.json: steps[2].callbacks[0]: unknown parameter ${expected}"), "\(xml)")
        }

        @Test("parse, for one fixture, refuses a parameterised file")
        func parseRefusesCases() {
            #expect(throws: FixtureError.self) { try parseFixture(Self.kickFixture(#"[{"code": 216, "expected": 216}]"#)) }
        }
    }
}
