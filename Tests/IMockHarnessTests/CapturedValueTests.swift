import Foundation
import IMockCore
import IMockHarness
import Testing

extension HarnessTests {
    /// `capture`: a value of one step's result or answer used by later steps as `${name}`
    /// (docs/FIXTURES.md § Captured values).
    @Suite("Captured values")
    struct CapturedValueTests {
        /// alice's phone sends bob two messages; the first one's id is captured.
        static func messages(expect: String, capture: String = #"{"mid": "messageId"}"#) -> String {
            """
            {"name": "captures", "rules": [{"id": "C10", "source": "001 § 离线消息"}],
             "apps": [{"name": "chat", "users": ["alice", "bob"]}],
             "devices": [{"name": "phone", "user": "alice"}, {"name": "bobPhone", "user": "bob"}],
             "steps": [{"do": "login", "device": "phone"}, {"do": "login", "device": "bobPhone"},
               {"do": "send", "device": "phone", "to": "bob", "text": "first", "capture": \(capture)},
               {"do": "send", "device": "phone", "to": "bob", "text": "second"},
               \(expect)]}
            """
        }

        @Test("a message id captured from a send's result is what the receiver's callback carries")
        func capturedFromAResult() async throws {
            let holds = try parseFixture(Self.messages(
                expect: #"{"expect": "sequence", "device": "bobPhone", "callbacks": ["messagesDidReceive(messageId: \"${mid}\", text: \"first\")"]}"#))
            let passed = await run(holds)
            #expect(passed.outcome == .passed, "\(passed.divergence?.failure.message ?? "")")
            // The captured id is the first message's: the second does not carry it.
            let wrong = try parseFixture(Self.messages(
                expect: #"{"expect": "sequence", "device": "bobPhone", "callbacks": ["messagesDidReceive(messageId: \"${mid}\", text: \"second\")"]}"#))
            let failed = await run(wrong)
            #expect(failed.outcome == .failed)
            #expect(failed.divergence?.stepIndex == 4)
        }

        @Test("a value captured from a REST answer fills a later path and matcher")
        func capturedFromAnAnswer() async throws {
            let fixture = try parseFixture("""
                {"name": "rest captures", "rules": [{"id": "X1", "source": "003 § 用户体系集成"}],
                 "apps": [{"name": "chat", "users": ["alice"]}], "devices": [{"name": "phone", "user": "alice"}],
                 "steps": [
                   {"rest": "POST users", "body": {"username": "carol", "password": "pw"}, "capture": {"uuid": "entities.0.uuid", "who": "entities.0.username"}},
                   {"rest": "GET users/${who}", "response": {"entities": [{"uuid": "${uuid}", "username": "carol"}]}}]}
                """)
            let result = await run(fixture)
            #expect(result.outcome == .passed, "\(result.divergence?.failure.message ?? "")")
        }

        @Test("a path the result does not have fails the capturing step, naming what it had")
        func missingPath() async throws {
            let fixture = try parseFixture(Self.messages(
                expect: #"{"expect": "sequence", "device": "bobPhone", "callbacks": ["messagesDidReceive(messageId: \"${mid}\")"]}"#,
                capture: #"{"mid": "message.id"}"#))
            let result = await run(fixture)
            #expect(result.outcome == .failed)
            #expect(result.divergence?.stepIndex == 2)
            #expect(result.divergence?.failure.message.contains("captures ${mid} from message.id, which its result does not have") == true,
                    "\(result.divergence?.failure.message ?? "")")
        }

        /// Refused captures: checked with the other invalid fixtures (`InvalidFixtureTests`).
        static let refusals: [(name: String, text: String, path: String, reason: String)] = [
            ("a value no step captures", messages(expect: #"{"expect": "sequence", "device": "bobPhone", "callbacks": ["messagesDidReceive(messageId: \"${other}\")"]}"#),
             "steps[4].callbacks[0]", "unknown parameter ${other} (the fixture has no parameters, and no step captures it)"),
            ("a value used before it is captured", messages(
                expect: #"{"do": "send", "device": "phone", "to": "bob", "text": "${late}"}, {"do": "send", "device": "phone", "to": "bob", "text": "x", "capture": {"late": "messageId"}, "result": {"error": null}}"#),
             "steps[4]", "${late} is not captured by an earlier step"),
            ("a capture on a step with nothing to capture", miniFixture(steps: #"[{"advance": "1m", "capture": {"x": "y"}}, {"expect": "state", "device": "phone", "loggedIn": false}]"#),
             "steps[0].capture", "only a do, rest or control step"),
            ("a capture path with an empty member", messages(expect: #"{"expect": "state", "device": "phone", "loggedIn": true}"#, capture: #"{"mid": "a..b"}"#),
             "steps[2].capture.mid", "must be a path of members and indexes"),
            ("a name captured twice", messages(expect: #"{"do": "send", "device": "phone", "to": "bob", "text": "x", "capture": {"mid": "messageId"}, "result": {"error": null}}"#),
             "steps[4].capture.mid", "${mid} is captured twice"),
            ("a capture that is not an object", messages(expect: #"{"expect": "state", "device": "phone", "loggedIn": true}"#, capture: #""messageId""#),
             "steps[2].capture", "must be an object of names and paths"),
            ("a parameter with a captured name", messages(expect: #"{"expect": "state", "device": "phone", "loggedIn": true}"#)
                .replacingOccurrences(of: #""name": "captures","#, with: #""name": "captures", "parameters": [{"mid": 1}],"#),
             "parameters[0].mid", "${mid} is also a captured value"),
        ]
    }
}
