import IMockClient
import IMockCore
import IMockHarness
import Testing

extension HarnessTests {
    /// The matchers and the evaluator on hand-made windows: each can fail.
    @Suite("Matchers and the expectation evaluator")
    struct MatcherTests {
        static func callback(_ sequence: UInt64, _ device: String, _ name: String, _ arguments: [(String, JSONValue)] = [], at: Int64 = 0)
            -> ObservedCallback
        {
            ObservedCallback(sequence: sequence, device: device, name: name, arguments: arguments.map { CallbackArgument($0.0, $0.1) }, timeMs: at, stepIndex: 0)
        }

        /// `phone: a, pad: x, phone: b(code: 206), pad: y, phone: c`.
        static let window = [
            callback(1, "phone", "a"), callback(2, "pad", "x"), callback(3, "phone", "b", [("code", 206)], at: 60_000),
            callback(4, "pad", "y"), callback(5, "phone", "c"),
        ]

        func fixture(_ expectation: String) throws -> ExpectationKind {
            let fixture = try parseFixture(miniFixture(steps: "[\(expectation)]"))
            guard case .expect(let parsed) = fixture.steps[0].kind else { throw FixtureError(path: "", reason: "no expectation") }
            return parsed.kind
        }

        func holds(_ expectation: String) throws -> Bool {
            ExpectationEvaluator.check(try fixture(expectation), window: Self.window, startMs: 0) == nil
        }

        @Test("sequence: gaps allowed or not, complete, arguments and times")
        func sequence() throws {
            #expect(try holds(#"{"expect": "sequence", "device": "phone", "callbacks": ["a", "c"]}"#))
            #expect(try !holds(#"{"expect": "sequence", "device": "phone", "callbacks": ["c", "a"]}"#))
            #expect(try !holds(#"{"expect": "sequence", "device": "phone", "gaps": false, "callbacks": ["a", "c"]}"#))
            #expect(try holds(#"{"expect": "sequence", "device": "phone", "gaps": false, "callbacks": ["a", "b", "c"]}"#))
            #expect(try !holds(#"{"expect": "sequence", "device": "phone", "complete": true, "callbacks": ["a", "b"]}"#))
            #expect(try holds(#"{"expect": "sequence", "device": "phone", "callbacks": ["b(code: 206)"]}"#))
            #expect(try !holds(#"{"expect": "sequence", "device": "phone", "callbacks": ["b(code: 207)"]}"#))
            #expect(try holds(#"{"expect": "sequence", "device": "phone", "callbacks": [{"callback": "b", "at": "1m"}]}"#))
            #expect(try !holds(#"{"expect": "sequence", "device": "phone", "callbacks": [{"callback": "b", "at": "2m"}]}"#))
            #expect(try !holds(#"{"expect": "sequence", "device": "pad", "callbacks": ["a"]}"#))
        }

        func failure(_ expectation: String, window: [ObservedCallback] = Self.window) throws -> ScenarioFailure {
            try #require(ExpectationEvaluator.check(try fixture(expectation), window: window, startMs: 0))
        }

        @Test("complete: true names the callback besides the sequence and where it came, and marks no expected one ✗")
        func completeNamesTheExtra() throws {
            let between = try failure(#"{"expect": "sequence", "device": "phone", "complete": true, "callbacks": ["a", "c"]}"#)
            #expect(between.message.contains("#3 +1m phone: b(code: 206) came between a (#1) and c (#5)"), "\(between.message)")
            #expect(between.expected == ["✓ phone: a", "✓ phone: c"])
            #expect(between.observed.contains("#3 +1m phone: b(code: 206)   ◀ not expected (complete: true)"), "\(between.observed)")
            let after = try failure(#"{"expect": "sequence", "device": "phone", "complete": true, "gaps": false, "callbacks": ["a", "b"]}"#)
            #expect(after.message.contains("phone: c came after b (#3)"), "\(after.message)")
            #expect(!after.expected.contains { $0.hasPrefix("✗") })
            #expect(try holds(#"{"expect": "sequence", "device": "phone", "complete": true, "callbacks": ["a", "b", "c"]}"#))
            let missing = try failure(#"{"expect": "sequence", "device": "phone", "complete": true, "callbacks": ["a", "d"]}"#)
            #expect(missing.expected == ["✓ phone: a", "✗ phone: d"])
        }

        @Test("times in failures are durations since the start, as in the timeline")
        func timesAsDurations() throws {
            let exact = try failure(#"{"expect": "sequence", "device": "phone", "callbacks": [{"callback": "b", "at": "47m"}]}"#)
            #expect(exact.message.contains("phone: b at +47m"), "\(exact.message)")
            let range = try failure(#"{"expect": "sequence", "device": "phone", "callbacks": [{"callback": "b", "at": {"$range": ["47m", "49m30s"]}}]}"#)
            #expect(range.message.contains("phone: b between +47m and +49m30s"), "\(range.message)")
            #expect(!(range.message + range.expected.joined()).contains("2820000"))
        }

        @Test("the observed excerpt lists the near misses first, however many callbacks came")
        func nearMissesFirst() throws {
            var window = (1...40).map { Self.callback(UInt64($0), "phone", "noise\($0)") }
            window.append(Self.callback(41, "pad", "kicked", [("code", 206)]))
            window.append(Self.callback(42, "phone", "kicked", [("code", 207)]))
            let sequence = try failure(#"{"expect": "sequence", "device": "phone", "callbacks": ["kicked(code: 206)"]}"#, window: window)
            #expect(sequence.observed.first?.hasPrefix("#42 +0s phone: kicked(code: 207)   ◀ near miss of phone: kicked(code: 206)") == true, "\(sequence.observed)")
            #expect(sequence.observed.count == ObservedExcerpt.limit + 1)
            #expect(sequence.observed.last == "… 25 more callbacks not shown")
            let unordered = try failure(#"{"expect": "unordered", "callbacks": ["phone: kicked(code: 206)"]}"#, window: window)
            #expect(unordered.observed.first?.contains("#42 +0s phone: kicked(code: 207)   ◀ near miss") == true, "\(unordered.observed)")
            let order = try failure(#"{"expect": "order", "callbacks": ["phone: noise1", "phone: kicked(code: 208)"]}"#, window: window)
            #expect(order.observed.first?.contains("#42 +0s phone: kicked(code: 207)   ◀ near miss") == true, "\(order.observed)")
        }

        @Test("unordered, cross-device order and absence")
        func otherKinds() throws {
            #expect(try holds(#"{"expect": "unordered", "callbacks": ["pad: y", "phone: a"]}"#))
            #expect(try !holds(#"{"expect": "unordered", "callbacks": ["pad: y", "pad: y"]}"#))
            #expect(try holds(#"{"expect": "order", "callbacks": ["pad: x", "phone: b", "pad: y"]}"#))
            #expect(try !holds(#"{"expect": "order", "callbacks": ["pad: y", "phone: b"]}"#))
            #expect(try !holds(#"{"expect": "order", "callbacks": ["phone: a", "pad: z"]}"#))
            #expect(try holds(#"{"expect": "absent", "callbacks": ["phone: x", "pad: a"]}"#))
            #expect(try !holds(#"{"expect": "absent", "callbacks": ["phone: c"]}"#))
            // Any one of its callbacks breaks an absence, not only all of them; with arguments too.
            #expect(try !holds(#"{"expect": "absent", "callbacks": ["pad: z", "phone: c"]}"#))
            #expect(try !holds(#"{"expect": "absent", "callbacks": ["phone: c", "pad: z"]}"#))
            #expect(try holds(#"{"expect": "absent", "callbacks": ["phone: b(code: 207)", "pad: z"]}"#))
            #expect(try !holds(#"{"expect": "absent", "callbacks": ["pad: z", "phone: b(code: 206)"]}"#))
        }

        /// Each expectation kind in each of its shapes — one pattern, several, with arguments —
        /// with a window it holds on and one it fails on (over ``window``).
        static let shapes: [(shape: String, holds: String, fails: String)] = [
            ("sequence, one", #"{"expect": "sequence", "device": "phone", "callbacks": ["b"]}"#,
             #"{"expect": "sequence", "device": "phone", "callbacks": ["x"]}"#),
            ("sequence, several", #"{"expect": "sequence", "device": "phone", "callbacks": ["a", "b", "c"]}"#,
             #"{"expect": "sequence", "device": "phone", "callbacks": ["a", "c", "b"]}"#),
            ("sequence, with arguments", #"{"expect": "sequence", "device": "phone", "callbacks": ["a", "b(code: 206)"]}"#,
             #"{"expect": "sequence", "device": "phone", "callbacks": ["a", "b(code: 216)"]}"#),
            ("unordered, one", #"{"expect": "unordered", "callbacks": ["pad: x"]}"#,
             #"{"expect": "unordered", "callbacks": ["pad: a"]}"#),
            ("unordered, several", #"{"expect": "unordered", "callbacks": ["phone: c", "pad: x", "phone: a"]}"#,
             #"{"expect": "unordered", "callbacks": ["phone: c", "pad: x", "phone: z"]}"#),
            ("unordered, with arguments", #"{"expect": "unordered", "callbacks": ["pad: y", "phone: b(code: 206)"]}"#,
             #"{"expect": "unordered", "callbacks": ["pad: y", "phone: b(code: 207)"]}"#),
            ("order, several", #"{"expect": "order", "callbacks": ["phone: a", "pad: x", "phone: c"]}"#,
             #"{"expect": "order", "callbacks": ["phone: a", "phone: c", "pad: x"]}"#),
            ("order, with arguments", #"{"expect": "order", "callbacks": ["pad: x", "phone: b(code: 206)"]}"#,
             #"{"expect": "order", "callbacks": ["pad: x", "phone: b(code: 208)"]}"#),
            ("absent, one", #"{"expect": "absent", "callbacks": ["pad: z"]}"#,
             #"{"expect": "absent", "callbacks": ["pad: y"]}"#),
            ("absent, several", #"{"expect": "absent", "callbacks": ["pad: z", "phone: d"]}"#,
             #"{"expect": "absent", "callbacks": ["pad: z", "phone: d", "phone: a"]}"#),
            ("absent, with arguments", #"{"expect": "absent", "callbacks": ["phone: b(code: 207)"]}"#,
             #"{"expect": "absent", "callbacks": ["phone: b(code: 206)"]}"#),
        ]

        @Test("every expectation kind can fail in every shape", arguments: shapes.indices)
        func everyShapeCanFail(index: Int) throws {
            let (shape, holding, failing) = Self.shapes[index]
            #expect(try holds(holding), "\(shape) should hold")
            #expect(try !holds(failing), "\(shape) should fail")
        }

        @Test("value matchers: exact, any, regex, range, subset")
        func valueMatchers() throws {
            let value: JSONValue = ["code": 206, "info": ["deviceName": "Pixel", "extensionInfo": ""], "message": "kicked by Pixel"]
            func matcher(_ json: String) throws -> ValueMatcher {
                let fixture = try parseFixture(miniFixture(steps: #"[{"do": "login", "device": "phone", "result": \#(json)}]"#))
                guard case .device(let action) = fixture.steps[0].kind, let result = action.result else { throw FixtureError(path: "", reason: "") }
                return result
            }
            #expect(try matcher(#"{"code": 206}"#).matches(value))
            #expect(try !matcher(#"{"code": 207}"#).matches(value))
            #expect(try matcher(#"{"code": {"$range": [200, 299]}}"#).matches(value))
            #expect(try !matcher(#"{"code": {"$range": [300, null]}}"#).matches(value))
            #expect(try matcher(#"{"message": {"$regex": "Pixel$"}}"#).matches(value))
            #expect(try !matcher(#"{"message": {"$regex": "^Pixel"}}"#).matches(value))
            #expect(try matcher(#"{"info": {"deviceName": "Pixel"}}"#).matches(value))
            #expect(try !matcher(#"{"info": {"deviceName": "iPhone"}}"#).matches(value))
            #expect(try matcher(#"{"info": {"$any": true}}"#).matches(value))
            #expect(try !matcher(#"{"missing": {"$any": true}}"#).matches(value))
            #expect(ValueMatcher.exact(["a": 1, "b": 2]).matches(["b": 2, "a": 1]))
            #expect(!ValueMatcher.exact(["a": 1]).matches(["a": 1, "b": 2]))
        }

        @Test("durations read and print the way fixtures write them")
        func durations() {
            #expect(DurationText.parse("55m") == 3_300_000)
            #expect(DurationText.parse("1h30m") == 5_400_000)
            #expect(DurationText.parse("1500ms") == 1500)
            #expect(DurationText.parse("2d") == 172_800_000)
            #expect(DurationText.parse("5") == nil)
            #expect(DurationText.parse("m") == nil)
            #expect(DurationText.format(5_400_000) == "1h30m")
            #expect(DurationText.format(1500) == "1s500ms")
        }
    }
}
