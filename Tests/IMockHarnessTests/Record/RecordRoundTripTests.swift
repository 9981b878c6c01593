import Foundation
import IMockClient
import IMockCommon
import IMockCore
import IMockHarness
import IMockNet
import IMockServer
import IMockTestSupport
import Testing

extension HarnessTests {
    /// Record mode's round trip (docs/RECORD.md): a catalogue fixture replayed with recording
    /// on exports a fixture that passes where the original passes, and fails on a server whose
    /// behaviour changed.
    @Suite("Record mode round trip")
    struct RecordRoundTripTests {
        /// A representative subset: logins and policies, kicks of every origin, token events,
        /// logout, account switch, messages, REST calls with every kind of credential, three
        /// profiles. Left out: scenarios whose devices reconnect on their own back-off under
        /// network faults (C2, S4 keep-current-device 214): docs/RECORD.md § Limits.
        static let subset = [
            "Fixtures/E/E10-device-limit-kicks-earliest.json", "Fixtures/E/E11-device-description.json",
            "Fixtures/E/E5-renew-token.json", "Fixtures/E/E6-token-did-expire.json", "Fixtures/E/E8-logout-unbind-fails.json",
            "Fixtures/E/E9-account-switch.json", "Fixtures/S/S4-single-device-new-kicks-old.json",
            "Fixtures/S/S7-user-deleted-207.json", "Fixtures/S/S7-password-change-216.json",
            "Fixtures/S/S7-force-logout-217.json", "Fixtures/S/S3-token-of-another-user-or-app.json",
            "Fixtures/C/C10-offline-messages-once.json", "Fixtures/E/E15-app-disabled-305.json", "Fixtures/Z/Z3-kicked-out.json",
        ]

        /// Fixtures whose SDK calls the client refuses by itself (a login while logged in, a send
        /// after a kick): they never reach the server, so a replay does not make them and their
        /// callbacks are not checked (`--no-callbacks`; docs/RECORD.md § Limits).
        static let refusedByTheClient: Set<String> = ["Fixtures/E/E9-account-switch.json", "Fixtures/Z/Z3-kicked-out.json"]

        /// Runs `fixture` with recording on; returns its result and the exported fixture's text.
        static func recordAndExport(
            _ fixture: Fixture, settings: RunSettings = RunSettings(), options: RecordingExportOptions = RecordingExportOptions()
        ) async throws -> (ScenarioResult, String) {
            var settings = settings
            let sink = RecordingSink()
            settings.recordings = sink
            let result = await run(fixture, settings: settings)
            let recording = try #require(sink.recordings.last?.recording)
            let exported = try RecordingExport.fixture(try RecordingReader(recording), options: options).fixture
            return (result, exported.prettyString)
        }

        @Test("a recorded catalogue fixture exports one that passes on every transport the original passes on", arguments: subset)
        func roundTrip(file: String) async throws {
            var replayed: [ClientTransport] = []
            for transport in [ClientTransport.imockJSON, .msync] {
                var settings = RunSettings()
                settings.transport = transport
                var options = RecordingExportOptions()
                options.callbacks = !Self.refusedByTheClient.contains(file)
                let (original, text) = try await Self.recordAndExport(try loadFixture(file), settings: settings, options: options)
                guard original.outcome == .passed else { continue }
                replayed.append(transport)
                let exported = try parseFixture(text, file: file + ".exported")
                let replay = await run(exported, settings: settings)
                #expect(replay.outcome == .passed, "\(transport.rawValue): \(ConsoleReport.scenario(replay))\n\(text)")
                #expect(exported.steps.contains { step in
                    if case .expect(let expectation) = step.kind, case .sent = expectation.kind { return true }
                    return false
                })
                #expect(exported.steps.contains { step in
                    if case .expect(let expectation) = step.kind, case .sequence = expectation.kind { return true }
                    return false
                } == options.callbacks, "the callbacks the run observed are checked")
            }
            #expect(replayed.contains(.imockJSON), "the original does not pass over imock JSON")
        }

        @Test("a device that logs in again while its first connection is open (two tabs, one device id) exports as two instances")
        func twoInstancesOfOneDevice() async throws {
            let fixture = try loadFixture("adapters/easemob-web/fixtures/C6-two-tabs-same-device.json")
            let (original, text) = try await Self.recordAndExport(fixture)
            #expect(original.outcome == .passed)
            let exported = try parseFixture(text)
            #expect(exported.devices.map(\.resource) == ["web_browser", "web_browser"], "\(text)")
            #expect(text.contains(#/"device": "web-2",\s*"since": "start"/#), "the second tab's callbacks are its own")
            let replay = await run(exported)
            #expect(replay.outcome == .passed, "\(ConsoleReport.scenario(replay))\n\(text)")
        }

        @Test("the export checks the order across devices, or each device's own with order device")
        func orderOption() async throws {
            let fixture = try loadFixture("Fixtures/E/E10-device-limit-kicks-earliest.json")
            let (_, global) = try await Self.recordAndExport(fixture)
            var options = RecordingExportOptions()
            options.order = .device
            let (_, perDevice) = try await Self.recordAndExport(fixture, options: options)
            let crossDevice = #/"expect": "sent",\s*"frames"/#
            #expect(global.contains(crossDevice))
            #expect(!perDevice.contains(crossDevice))
            #expect(await run(try parseFixture(perDevice)).outcome == .passed)
        }

        @Test("an exported fixture fails on a server whose policy kicks with another code")
        func mutatedServerFails() async throws {
            let fixture = try loadFixture("Fixtures/S/S4-single-device-new-kicks-old.json")
            let (original, text) = try await Self.recordAndExport(fixture)
            #expect(original.outcome == .passed)
            #expect(text.contains("\"code\": 206"))
            let exported = try parseFixture(text)
            let mutant = try MutantServer()
            var settings = RunSettings()
            settings.target = .external(url: mutant.url, adminSecret: MutantServer.secret)
            let replay = await run(exported, settings: settings)
            await mutant.stop()
            #expect(replay.outcome == .failed)
            #expect(replay.divergence?.failure.message.contains("the server did not send") == true, "\(ConsoleReport.scenario(replay))")
            #expect(replay.divergence.map { $0.failure.observed.joined().contains("216") } == true)
        }

        @Test("an export validates against Fixtures/schema.json (skipped without python3 + jsonschema)")
        func validatesAgainstTheSchema() async throws {
            guard await available("python3", python: "import jsonschema") else { return print("skipped: python3 with jsonschema not installed") }
            let (_, text) = try await Self.recordAndExport(try loadFixture("Fixtures/E/E10-device-limit-kicks-earliest.json"))
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try text.write(toFile: directory + "/exported.json", atomically: true, encoding: .utf8)
            let script = """
                import json, sys, jsonschema
                validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
                print("; ".join(e.message for e in validator.iter_errors(json.load(open(sys.argv[2])))) or "ok")
                """
            let output = try await ExternalCommand.run("python3", ["-c", script, packageRoot + "/Fixtures/schema.json", directory + "/exported.json"])
            #expect(output.stdout == "ok\n", "\(output.stdout) \(output.stderr)")
        }

        @Test("imock run --record writes each fixture's recording, and its export replays")
        func runRecordOption() async throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var configuration = RunConfiguration()
            configuration.paths = [packageRoot + "/Fixtures/E/E10-device-limit-kicks-earliest.json"]
            configuration.recordDirectory = directory + "/recordings"
            let lines = HarnessTests.Lines()
            #expect(await ConformanceRun.run(configuration) { lines.append($0) } == 0)
            let path = directory + "/recordings/E10-device-limit-kicks-earliest.recording.json"
            let recording = try RecordingReader(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            let exported = try RecordingExport.fixture(recording).fixture
            #expect(await run(try parseFixture(exported.prettyString)).outcome == .passed)
        }

        @Test("a session of the PyPI OpenIM client records and replays green through its adapter (skipped without it)")
        func openIMPythonSession() async throws {
            guard await openIMPythonClientAvailable() else { return }
            var settings = RunSettings()
            settings.adapters["openim-python"] = ["python3", packageRoot + "/adapters/openim-python/openim_adapter.py"]
            settings.adapterOverride = "openim-python"
            let cases = try FixtureParser.parseCases(
                Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Fixtures/O/O7-kicked-by-policy-and-force-logout.json"))),
                file: "O7.json")
            for fixture in cases {
                let (original, text) = try await Self.recordAndExport(fixture, settings: settings)
                #expect(original.outcome == .passed, "\(ConsoleReport.scenario(original))")
                let replay = await run(try parseFixture(text), settings: settings)
                #expect(replay.outcome == .passed, "\(ConsoleReport.scenario(replay))\n\(text)")
            }
        }
    }
}

/// An in-process `imock serve --clock virtual` whose login policy kicks with 216 where the
/// policy says 206: a server whose behaviour changed.
final class MutantServer: @unchecked Sendable {
    static let secret = "mutant-secret"
    let loop: EventLoop
    let url: String
    private let server: MockServer
    private let owner: ServerLoopOwner

    init() throws {
        loop = try EventLoop()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.clockMode = .virtual
        configuration.adminSecret = Self.secret
        server = MockServer(
            loop: loop, configuration: configuration,
            directory: Directory(settings: DirectorySettings(passwordIterations: 10, random: configuration.makeRandomSource())),
            decider: KickCodeMutant())
        url = "http://127.0.0.1:\(try server.start().port)"
        owner = ServerLoopOwner(loop: loop, server: server)
        loop.start()
    }

    func stop() async { await owner.stop() }
}

/// The app's policy, with 206 kicks told as 216.
struct KickCodeMutant: LoginDecider {
    func decide(_ attempt: LoginAttempt, liveSessions: LiveSessions, app: App) throws(LoginPolicyError) -> LoginDecision {
        let decision = try AppLoginDecider().decide(attempt, liveSessions: liveSessions, app: app)
        guard case .acceptAndKick(let resource, let replacing, let kicks) = decision else { return decision }
        let changed = kicks.map { kick in
            kick.signal == .easemob(.loggedInOnAnotherDevice) ? Kick(session: kick.session, signal: .easemob(.kickedByPasswordChange), by: kick.by) : kick
        }
        return .acceptAndKick(resource: resource, replacing: replacing, kicks: changed)
    }
}
