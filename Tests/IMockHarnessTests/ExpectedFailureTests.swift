import Dispatch
import IMockClient
import IMockHarness
import IMockTestSupport
import Testing

extension HarnessTests {
    /// The expected-failure mark: it names the failure it expects (step, message), may hold only
    /// on a transport or through an adapter, and hides nothing else.
    @Suite("Expected failures")
    struct ExpectedFailureTests {
        /// Logs in, then expects a callback that never comes (steps[1]).
        static let failingSteps = #"[{"do": "login", "device": "phone"}, {"expect": "sequence", "device": "phone", "callbacks": ["neverComes"]}]"#

        static func marked(_ mark: String, steps: String = failingSteps) throws -> Fixture {
            try parseFixture(miniFixture(steps: steps, extra: #", "expectedFailure": \#(mark)"#))
        }

        @Test("a marked fixture that fails as named is an expected failure; one that passes must lose its mark")
        func marks() async throws {
            let failed = await run(try Self.marked(#"{"reason": "the client has no such callback yet", "step": 1}"#))
            #expect(failed.outcome == .expectedFailure)
            #expect(!failed.outcome.isFailure)
            #expect(failed.note == "the client has no such callback yet")

            let passed = await run(try parseFixture(miniFixture(extra: #", "expectedFailure": {"reason": "fixed meanwhile", "step": 1}"#)))
            #expect(passed.outcome == .unexpectedPass)
            #expect(passed.outcome.isFailure)
            #expect(ConsoleReport.scenario(passed).contains("remove \"expectedFailure\""))
        }

        @Test("a failure at another step, or with another message, is a failure")
        func otherFailures() async throws {
            let elsewhere = await run(try Self.marked(#"{"reason": "r", "step": 0}"#))
            #expect(elsewhere.outcome == .failed)
            #expect(elsewhere.note?.contains("it failed elsewhere") == true, "\(elsewhere.note ?? "")")
            #expect(ConsoleReport.scenario(elsewhere).contains("but it failed elsewhere"))

            let otherMessage = await run(try Self.marked(#"{"reason": "r", "step": 1, "message": "kicked"}"#))
            #expect(otherMessage.outcome == .failed)
            let sameMessage = await run(try Self.marked(#"{"reason": "r", "message": "expected phone: never"}"#))
            #expect(sameMessage.outcome == .expectedFailure)
        }

        @Test("an expected failure scoped to a transport or adapter holds only there")
        func scoped() async throws {
            let msyncOnly = try Self.marked(#"[{"reason": "msync lacks it", "step": 1, "transport": "msync"}]"#)
            #expect(await run(msyncOnly).outcome == .failed)
            var msync = RunSettings()
            msync.transport = .msync
            #expect(await run(msyncOnly, settings: msync).outcome == .expectedFailure)

            let webOnly = try Self.marked(#"{"reason": "the Web SDK lacks it", "step": 1, "adapter": "easemob-web"}"#)
            #expect(await run(webOnly).outcome == .failed)
            // A passing fixture whose only mark is for another transport simply passes.
            let passing = try parseFixture(miniFixture(extra: #", "expectedFailure": {"reason": "r", "step": 1, "transport": "msync"}"#))
            #expect(await run(passing).outcome == .passed)
        }

        @Test("an adapter mark holds by the adapter's own name (its hello), whatever --adapter calls it")
        func scopedByOwnName() async throws {
            let fixture = try Self.marked(#"{"reason": "the Python client lacks it", "step": 1, "adapter": "python-imock"}"#)
            var settings = RunSettings()
            settings.adapters["py"] = lowPriority + ["python3", packageRoot + "/adapters/python-imock/imock_adapter.py"]
            settings.adapterOverride = "py"
            #expect(await run(fixture, settings: settings).outcome == .expectedFailure)
            #expect(await run(fixture).outcome == .failed)
        }

        @Test("a set-up failure — server refusing the connection or the admin secret — is never an expected failure")
        func setUpFailures() async throws {
            let fixture = try Self.marked(#"{"reason": "r", "step": 1}"#)
            let child = try await IMockProcess.start(["--clock", "virtual", "--admin-secret", "right-secret"])
            var settings = RunSettings()
            settings.target = .external(url: "http://127.0.0.1:\(child.port)", adminSecret: "wrong-secret")
            let wrongSecret = await run(fixture, settings: settings)
            #expect(wrongSecret.outcome == .failed)
            #expect(wrongSecret.divergence?.failure.message.contains("refused the admin secret (401)") == true)
            #expect(wrongSecret.note?.contains("it failed in set-up") == true)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    _ = child.terminate()
                    done.resume()
                }
            }
            // Nothing listens on the port any more: the connection is refused.
            settings.target = .external(url: "http://127.0.0.1:\(child.port)", adminSecret: "right-secret")
            let refused = await run(fixture, settings: settings)
            #expect(refused.outcome == .failed)
            let message = refused.divergence?.failure.message ?? ""
            #expect(message.contains("cannot connect to http://127.0.0.1:\(child.port): connection refused"), "\(message)")
        }

        @Test("a failure names the step, what was expected and what was observed, at its virtual time")
        func divergenceReport() async throws {
            let fixture = try parseFixture(miniFixture(steps: """
                [{"do": "login", "device": "phone"}, {"advance": "5m"},
                 {"expect": "sequence", "device": "phone", "since": "start", "gaps": false, "callbacks": ["loginCompletion", "onDatabaseOpened"]}]
                """))
            let result = await run(fixture)
            #expect(result.outcome == .failed)
            let divergence = try #require(result.divergence)
            #expect(divergence.stepPath == "steps[2]")
            #expect(divergence.atMs - result.startMs == 300_000)
            #expect(divergence.failure.device == "phone")
            let text = ConsoleReport.scenario(result)
            #expect(text.contains("first divergence at steps[2]"))
            #expect(text.contains("✗ phone: onDatabaseOpened"))
            #expect(text.contains("FIRST DIVERGENCE"))
            #expect(text.contains("+5m"))
        }
    }
}
