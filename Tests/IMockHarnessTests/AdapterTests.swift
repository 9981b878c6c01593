import Foundation
import IMockHarness
import IMockTestSupport
import Testing

extension HarnessTests {
    /// External adapters: the Python adapter's declared subset, the handshake, and hangs reported as
    /// failures naming the step.
    @Suite("External adapters")
    struct AdapterTests {
        @Test("the Python adapter passes its declared subset (skipped without python3 + websockets)")
        func pythonSubset() async throws {
            guard await available("python3", python: "import websockets.asyncio.client") else {
                print("skipped: python3 with websockets ≥ 13 not installed (pip install websockets)")
                return
            }
            try await expectAdapterPassesItsSubset("python-imock", script: "imock_adapter.py", atLeast: 10)
        }

        /// Settings that drive every device through a fake adapter answering the handshake with `hello`.
        static func fakeSettings(_ name: String, hello: String) throws -> (directory: String, settings: RunSettings) {
            let (directory, command) = try fakeAdapter(hello: hello)
            var settings = RunSettings()
            settings.adapters[name] = command
            settings.adapterOverride = name
            return (directory, settings)
        }

        /// A fake adapter: answers the handshake with `hello`, then ignores every command.
        static func fakeAdapter(hello: String) throws -> (directory: String, command: [String]) {
            let directory = try temporaryDirectory()
            let script = """
                import sys, json
                for line in sys.stdin:
                    message = json.loads(line)
                    if message.get("type") == "hello":
                        print(json.dumps(\(hello)), flush=True)
                """
            try script.write(toFile: directory + "/adapter.py", atomically: true, encoding: .utf8)
            return (directory, lowPriority + ["python3", directory + "/adapter.py"])
        }

        @Test("an adapter that never answers is reported as a hang naming the step, within the step timeout")
        func hang() async throws {
            guard await available("python3") else { return print("skipped: no python3") }
            var (directory, settings) = try Self.fakeSettings("mute", hello: #"{"type": "hello", "protocol": 1, "clock": "realtime"}"#)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            settings.stepTimeout = .milliseconds(300)
            let started = ContinuousClock.now
            let result = await run(try parseFixture(miniFixture()), settings: settings)
            #expect(ContinuousClock.now - started < .seconds(30), "a hang must end in a failure, not hang the run")
            #expect(result.outcome == .failed)
            #expect(result.divergence?.failure.message.contains("hang") == true, "\(String(describing: result.divergence))")
            #expect(result.divergence?.failure.message.contains("phone") == true)
        }

        @Test("an adapter speaking another protocol version is refused at the handshake")
        func versionMismatch() async throws {
            guard await available("python3") else { return print("skipped: no python3") }
            let (directory, settings) = try Self.fakeSettings("future", hello: #"{"type": "hello", "protocol": 2}"#)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let result = await run(try parseFixture(miniFixture()), settings: settings)
            #expect(result.outcome == .failed)
            #expect(result.divergence?.failure.message.contains("protocol 2") == true, "\(String(describing: result.divergence))")
        }

        @Test("an adapter that exits without a hello fails at once, not after the hello limit")
        func exitsBeforeHello() async throws {
            var settings = RunSettings()
            settings.adapters["gone"] = ["sh", "-c", "exit 3"]
            settings.adapterOverride = "gone"
            let started = ContinuousClock.now
            let result = await run(try parseFixture(miniFixture()), settings: settings)
            #expect(ContinuousClock.now - started < .seconds(20), "the end of its output ends the wait")
            #expect(result.outcome == .failed)
            #expect(result.divergence?.failure.message.contains("no hello answer") == true, "\(String(describing: result.divergence))")
            #expect(result.divergence?.failure.message.contains("gone") == true)
        }

        @Test("a fixture needing what the adapter lacks is skipped, saying why")
        func unsupportedSkipped() async throws {
            guard await available("python3") else { return print("skipped: no python3") }
            let (directory, settings) = try Self.fakeSettings(
                "small", hello: #"{"type": "hello", "protocol": 1, "clock": "realtime", "profiles": ["easemob"], "commands": ["init", "addDelegate"]}"#)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let result = await run(try parseFixture(miniFixture()), settings: settings)
            #expect(result.outcome == .skipped)
            #expect(result.note?.contains("does not support login") == true, "\(result.note ?? "")")
        }
    }
}
