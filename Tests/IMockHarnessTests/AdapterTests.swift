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
            #expect(result.divergence?.failure.message.contains("ended before answering the hello") == true, "\(String(describing: result.divergence))")
            #expect(result.divergence?.failure.message.contains("gone") == true)
        }

        /// Runs `count` copies of the mini fixture with every device driven by `command`, counting
        /// the adapter's starts in a file the command appends to (`$STARTS`).
        static func runCopies(_ count: Int, adapter command: String) async throws -> (status: Int32, lines: [String], starts: Int) {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var configuration = RunConfiguration()
            for index in 0..<count {
                try miniFixture().write(toFile: directory + "/mini\(index).json", atomically: true, encoding: .utf8)
                configuration.paths.append(directory + "/mini\(index).json")
            }
            configuration.settings.adapters["one"] = ["sh", "-c", "echo started >> \(directory)/starts; " + command]
            configuration.settings.adapterOverride = "one"
            let lines = Lines()
            let status = await ConformanceRun.run(configuration) { lines.append($0) }
            let starts = (try? String(contentsOfFile: directory + "/starts", encoding: .utf8))?.split(separator: "\n").count ?? 0
            return (status, lines.all.flatMap { $0.split(separator: "\n").map(String.init) }, starts)
        }

        @Test("a broken adapter is started once a run and fails the handshake at its first wrong line; every fixture fails naming it")
        func brokenStartedOnce() async throws {
            // It stays alive and silent after its wrong line: only that line can end the handshake early.
            let run = try await Self.runCopies(3, adapter: "echo 'Traceback: no module named sdk'; exec sleep 60")
            #expect(run.status == 1)
            #expect(run.starts == 1, "\(run.lines.joined(separator: "\n"))")
            let failures = run.lines.filter { $0.contains("adapter one: answered the hello with Traceback: no module named sdk") }
            #expect(failures.count >= 3, "\(run.lines.joined(separator: "\n"))")
            #expect(run.lines.joined().contains("not started again this run"))
        }

        @Test("a silent adapter fails the handshake after --hello-timeout")
        func silentAdapter() async throws {
            var settings = RunSettings()
            settings.adapters["mute"] = ["sleep", "60"]
            settings.adapterOverride = "mute"
            settings.helloTimeout = .milliseconds(200)
            let result = await run(try parseFixture(miniFixture()), settings: settings)
            #expect(result.outcome == .failed)
            #expect(result.divergence?.failure.message.contains("adapter mute: no hello answer within") == true, "\(String(describing: result.divergence))")
        }

        @Test("an adapter that echoes the harness's hello has not answered it")
        func echoIsNoHello() async throws {
            let run = try await Self.runCopies(1, adapter: "exec cat")
            #expect(run.status == 1)
            #expect(run.lines.contains { $0.contains(#"answered the hello with {"type":"hello","protocol":1,"harness":"imock"}"#) },
                    "\(run.lines.joined(separator: "\n"))")
        }

        @Test("a working adapter is started once and reset between the fixtures of a run (skipped without python3 + websockets)")
        func startedOnceAndReset() async throws {
            guard await available("python3", python: "import websockets.asyncio.client") else {
                return print("skipped: python3 with websockets ≥ 13 not installed (pip install websockets)")
            }
            let run = try await Self.runCopies(3, adapter: "exec python3 \(packageRoot)/adapters/python-imock/imock_adapter.py")
            #expect(run.status == 0, "\(run.lines.joined(separator: "\n"))")
            #expect(run.lines.filter { $0.contains("PASS") }.count == 3)
            #expect(run.starts == 1)
        }

        /// Runs E10 through the Python adapter behind a wrapper that holds the iPhone's kick
        /// callbacks until the Android's login completed: they reach the harness the other way
        /// round from the server's order. `barrier: false` removes `barrier` from the hello.
        static func reversedE10(barrier: Bool) async throws -> ScenarioResult {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let wrapper = """
                import json, subprocess, sys, threading
                child = subprocess.Popen([sys.executable, sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
                def forward():
                    for line in sys.stdin:
                        child.stdin.write(line)
                        child.stdin.flush()
                    child.stdin.close()
                threading.Thread(target=forward, daemon=True).start()
                held, released = [], False
                for line in child.stdout:
                    message = json.loads(line)
                    if message.get("type") == "hello" and sys.argv[2] == "no-barrier":
                        message["commands"].remove("barrier")
                        line = json.dumps(message) + "\\n"
                    kick = message.get("name") == "userAccountDidLoginFromOtherDevice" or message.get("args", {}).get("state") == "disconnected"
                    if message.get("type") == "callback" and message.get("device") == "iphone" and kick and not released:
                        held.append(line)
                        continue
                    sys.stdout.write(line)
                    if message.get("device") == "android" and message.get("name") == "loginCompletion":
                        sys.stdout.writelines(held)
                        held, released = [], True
                    sys.stdout.flush()
                """
            try wrapper.write(toFile: directory + "/reverse.py", atomically: true, encoding: .utf8)
            var settings = RunSettings()
            settings.adapters["python"] = lowPriority + [
                "python3", directory + "/reverse.py", packageRoot + "/adapters/python-imock/imock_adapter.py", barrier ? "barrier" : "no-barrier",
            ]
            settings.adapterOverride = "python"
            return await run(try loadFixture("Fixtures/E/E10-device-limit-kicks-earliest.json"), settings: settings)
        }

        @Test("the ordering barrier puts two devices' callbacks in server order though they reach the harness the other way round")
        func orderingBarrier() async throws {
            guard await available("python3", python: "import websockets.asyncio.client") else {
                return print("skipped: python3 with websockets ≥ 13 not installed (pip install websockets)")
            }
            let ordered = try await Self.reversedE10(barrier: true)
            #expect(ordered.outcome == .passed, "\(String(describing: ordered.divergence))")
            let unordered = try await Self.reversedE10(barrier: false)
            #expect(unordered.outcome == .failed)
            #expect(unordered.divergence?.stepSummary.contains("expect order") == true, "\(String(describing: unordered.divergence))")
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
