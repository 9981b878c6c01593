import Foundation
import IMockHarness
import Testing

extension HarnessTests {
    /// Invalid fixtures are refused with exit 65 naming file, JSON path and reason; bad usage is 64.
    @Suite("Invalid fixtures and bad usage")
    struct InvalidFixtureTests {
        static let cases: [(name: String, text: String, path: String, reason: String)] = [
            ("not JSON", "{\"name\": ", "", "not valid JSON"),
            ("unknown key", miniFixture(extra: #", "nmae": "typo""#), "nmae", "unknown key"),
            ("unknown rule id", miniFixture().replacingOccurrences(of: "\"E3\"", with: "\"E99\""), "rules[0].id", "unknown rule id \"E99\""),
            ("no rules", miniFixture().replacingOccurrences(of: #"[{"id": "E3", "source": "000 § 登录完成前使用本地数据库"}]"#, with: "[]"), "rules", "at least one rule"),
            ("unknown device in a step", miniFixture(steps: #"[{"do": "login", "device": "watch"}, {"expect": "state", "device": "phone", "loggedIn": true}]"#), "steps[0].device", "unknown device \"watch\""),
            ("unknown device in a pattern", miniFixture(steps: #"[{"expect": "order", "callbacks": ["phone: a", "watch: b"]}]"#), "steps[0].callbacks[1]", "unknown device \"watch\""),
            ("unknown action", miniFixture(steps: #"[{"do": "dance", "device": "phone"}]"#), "steps[0].do", "unknown action"),
            ("two verbs", miniFixture(steps: #"[{"do": "login", "advance": "1m", "device": "phone"}]"#), "steps[0]", "exactly one of"),
            ("bad duration", miniFixture(steps: #"[{"advance": "an hour"}]"#), "steps[0].advance", "duration"),
            ("bad regex", miniFixture(steps: #"[{"expect": "sequence", "device": "phone", "callbacks": ["a(x: {\"$regex\": \"(\"})"]}]"#), "steps[0].callbacks[0](x).$regex", "not a regular expression"),
            ("unknown label", miniFixture(steps: #"[{"expect": "absent", "since": "later", "callbacks": ["phone: a"]}]"#), "steps[0].since", "no step labelled"),
            ("unknown user", miniFixture(steps: #"[{"do": "login", "device": "phone", "user": "zed", "result": {"error": null}}]"#), "steps[0].user", "unknown user"),
            ("nothing checked", miniFixture(steps: #"[{"do": "login", "device": "phone"}]"#), "steps", "checks nothing"),
            ("expected failure naming nothing", miniFixture(extra: #", "expectedFailure": {"reason": "not yet"}"#), "expectedFailure", "must name the failure it expects"),
            ("expected failure at no step", miniFixture(extra: #", "expectedFailure": {"reason": "not yet", "step": 2}"#), "expectedFailure.step", "must be 0…1"),
            ("expected failure on an unknown transport", miniFixture(extra: #", "expectedFailure": [{"reason": "not yet", "step": 1, "transport": "xmpp"}]"#), "expectedFailure[0].transport", "must be one of"),
            ("expected failure with a bad pattern", miniFixture(extra: #", "expectedFailure": {"reason": "not yet", "message": "("}"#), "expectedFailure.message", "not a regular expression"),
            ("bad reconnect wait", miniFixture(extra: "").replacingOccurrences(of: #"{"name": "phone", "user": "alice"}"#, with: #"{"name": "phone", "user": "alice", "reconnect": {"waits": ["1s", "soon"]}}"#), "devices[0].reconnect.waits[1]", "must be a duration"),
            ("reconnect without min", miniFixture(extra: "").replacingOccurrences(of: #"{"name": "phone", "user": "alice"}"#, with: #"{"name": "phone", "user": "alice", "reconnect": {"max": "2s"}}"#), "devices[0].reconnect.min", "is required"),
            ("undefined token name", miniFixture(steps: #"[{"do": "login", "device": "phone", "token": {"name": "t9"}, "result": {"error": null}}]"#), "steps[0].token.name", "no issueToken step"),
        ]

        /// These and the refused parameter tables.
        static let allCases = cases + ParameterisedFixtureTests.refusals + CapturedValueTests.refusals + CallbackTriggeredFaultTests.refusals

        @Test("the parser names the JSON path and the reason", arguments: allCases.indices)
        func refused(index: Int) {
            let (name, text, path, reason) = Self.allCases[index]
            expectRefused(name, text, path: path, reason: reason)
        }

        @Test("imock run refuses an invalid fixture with 65 and runs nothing")
        func exit65() async throws {
            _ = try await expectRunRefuses(["good.json": miniFixture(), "bad.json": Self.cases[4].text])
        }

        @Test("a run stopped by an invalid fixture still writes its JUnit report, naming the error")
        func junitOfInvalidFixture() async throws {
            let xml = try await expectRunRefuses(["bad.json": Self.cases[4].text])
            #expect(xml.contains("errors=\"1\""))
            #expect(xml.contains("<error message=\"invalid fixture: "), "\(xml)")
            #expect(xml.contains("bad.json: steps[0].device: unknown device &quot;watch&quot;"), "\(xml)")
        }

        @Test("a path that does not exist is bad usage (64)")
        func missingPath() async {
            var configuration = RunConfiguration()
            configuration.paths = ["/no/such/fixtures"]
            #expect(await ConformanceRun.run(configuration) { _ in } == 64)
        }
    }

    /// Lines printed by a run, collected from any thread.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }
}
