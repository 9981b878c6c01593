import Foundation
import IMockClient
import IMockCommon
import IMockCore
import IMockHarness
import IMockNet
import IMockServer
import IMockTestSupport
import IMockWire
import Testing

extension HarnessTests {
    /// Record mode's round trip (docs/RECORD.md): a catalogue fixture replayed with recording
    /// on exports a fixture that passes where the original passes, and fails on a server whose
    /// behaviour changed.
    @Suite("Record mode round trip")
    struct RecordRoundTripTests {
        /// Catalogue fixtures that cannot round-trip, with why (docs/RECORD.md § Limits): none.
        static let cannotRoundTrip: [String: String] = [:]

        /// The transports a fixture's devices can all speak: imock JSON always, msync for
        /// Easemob-profile devices, OpenIM's gateway for OpenIM platforms.
        static func transports(_ fixture: Fixture) -> [ClientTransport] {
            ClientTransport.allCases.filter { transport in
                fixture.devices.allSatisfy { device in
                    transport.serves(device.description.platform) && (transport != .msync || device.profile == .easemob)
                }
            }
        }

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

        /// The export of `file` recorded in process (the original must pass), as text and parsed.
        static func exported(_ file: String) async throws -> (text: String, fixture: Fixture) {
            let (original, text) = try await recordAndExport(try loadFixture(file))
            #expect(original.outcome == .passed, "\(ConsoleReport.scenario(original))")
            return (text, try parseFixture(text))
        }

        /// Whether `fixture` has an expectation of this kind.
        static func checks(_ fixture: Fixture, _ kind: (ExpectationKind) -> Bool) -> Bool {
            fixture.steps.contains { step in
                if case .expect(let expectation) = step.kind { return kind(expectation.kind) }
                return false
            }
        }

        @Test("every catalogue fixture, recorded, exports one that passes on every transport the original passes on", arguments: catalogueFiles)
        func roundTrip(file: String) async throws {
            guard Self.cannotRoundTrip[file] == nil else { return }
            let fixture = try loadFixture(file)
            var replayed: [ClientTransport] = []
            for transport in Self.transports(fixture) {
                var settings = RunSettings()
                settings.transport = transport
                let (original, text) = try await Self.recordAndExport(fixture, settings: settings)
                guard original.outcome == .passed else { continue }
                replayed.append(transport)
                let exported = try parseFixture(text, file: file + ".exported")
                let replay = await run(exported, settings: settings)
                #expect(replay.outcome == .passed, "\(transport.rawValue): \(ConsoleReport.scenario(replay))\n\(text)")
                // What the server sent each device, and each device's callbacks, are checked.
                let logsIn = fixture.steps.contains { step in
                    if case .device(let action) = step.kind, case .login = action.call { return true }
                    return false
                }
                #expect(!logsIn || Self.checks(exported) { if case .sent = $0 { true } else { false } }, "\(transport.rawValue): no sent check")
                #expect(fixture.devices.isEmpty == !Self.checks(exported) { if case .sequence = $0 { true } else { false } },
                        "\(transport.rawValue): the callbacks the run observed are checked")
            }
            #expect(replayed.contains(.imockJSON), "the original does not pass over imock JSON")
        }

        @Test("a device that logs in again while its first connection is open (two tabs, one device id) exports as two instances")
        func twoInstancesOfOneDevice() async throws {
            let (text, exported) = try await Self.exported("adapters/easemob-web/fixtures/C6-two-tabs-same-device.json")
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
            let (text, exported) = try await Self.exported("Fixtures/S/S4-single-device-new-kicks-old.json")
            #expect(text.contains("\"code\": 206"))
            let mutant = try MutantServer()
            var settings = RunSettings()
            settings.target = .external(url: mutant.url, adminSecret: MutantServer.secret)
            let replay = await run(exported, settings: settings)
            await mutant.stop()
            #expect(replay.outcome == .failed)
            #expect(replay.divergence?.failure.message.contains("the server did not send") == true, "\(ConsoleReport.scenario(replay))")
            #expect(replay.divergence.map { $0.failure.observed.joined().contains("216") } == true)
        }

        @Test("an exported fixture fails on a server that loses the messages it pushes (its callback checks)")
        func droppedPushFails() async throws {
            let (_, exported) = try await Self.exported("Fixtures/C/C10-offline-messages-once.json")
            let honest = try MutantServer(decider: AppLoginDecider())
            var settings = RunSettings()
            settings.target = .external(url: honest.url, adminSecret: MutantServer.secret)
            let control = await run(exported, settings: settings)
            await honest.stop()
            #expect(control.outcome == .passed, "the same server unmutated passes: \(ConsoleReport.scenario(control))")
            let mutant = try MutantServer(dialects: MutantServer.droppingMessagePushes)
            settings.target = .external(url: mutant.url, adminSecret: MutantServer.secret)
            let replay = await run(exported, settings: settings)
            await mutant.stop()
            #expect(replay.outcome == .failed)
            #expect(replay.divergence?.stepSummary.contains("sequence") == true, "\(ConsoleReport.scenario(replay))")
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

        @Test("sessions of the PyPI OpenIM client (its adapter's subset) record and replay green through its adapter (skipped without it)")
        func openIMPythonSessions() async throws {
            guard await openIMPythonClientAvailable() else { return }
            var settings = RunSettings()
            settings.adapters["openim-python"] = ["python3", packageRoot + "/adapters/openim-python/openim_adapter.py"]
            settings.adapterOverride = "openim-python"
            let subset = try String(contentsOfFile: packageRoot + "/adapters/openim-python/subset.txt", encoding: .utf8).split(separator: "\n")
            #expect(subset.count >= 5)
            for file in subset {
                let (original, text) = try await Self.recordAndExport(try loadFixture(String(file)), settings: settings)
                #expect(original.outcome == .passed, "\(file): \(ConsoleReport.scenario(original))")
                let replay = await run(try parseFixture(text), settings: settings)
                #expect(replay.outcome == .passed, "\(file): \(ConsoleReport.scenario(replay))\n\(text)")
            }
        }
    }
}

/// An in-process `imock serve --clock virtual` whose behaviour changed: by default its login
/// policy kicks with 216 where the policy says 206.
final class MutantServer: @unchecked Sendable {
    static let secret = "mutant-secret"
    let loop: EventLoop
    let url: String
    let port: UInt16
    private let server: MockServer
    private let owner: ServerLoopOwner

    /// The served dialects, whose pushes of chat messages are lost on the way.
    static let droppingMessagePushes = DialectCatalog.served.map { route in
        DialectRoute(path: route.path, companions: route.companions) { MessageDroppingDialect(inner: route.make()) }
    }

    init(decider: any LoginDecider = KickCodeMutant(), dialects: [DialectRoute] = DialectCatalog.served) throws {
        loop = try EventLoop()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.clockMode = .virtual
        configuration.adminSecret = Self.secret
        server = MockServer(
            loop: loop, configuration: configuration,
            directory: Directory(settings: DirectorySettings(passwordIterations: 10, random: configuration.makeRandomSource())),
            dialects: dialects, decider: decider)
        port = try server.start().port
        url = "http://127.0.0.1:\(port)"
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

/// A dialect that loses every chat message the server pushes (live or offline).
struct MessageDroppingDialect: WireDialect {
    var inner: any WireDialect
    var name: String { inner.name }
    mutating func decode(_ message: WireMessage) -> [DialectInput] { inner.decode(message) }
    mutating func encode(reply: SessionReply, tag: RequestTag?) -> [WireMessage] { inner.encode(reply: reply, tag: tag) }
    mutating func encode(push: SessionPush) -> [WireMessage] {
        if case .message = push { return [] }
        return inner.encode(push: push)
    }
    mutating func encode(end: SessionEnd) -> (messages: [WireMessage], close: WireClose) { inner.encode(end: end) }
    mutating func login(forUpgrade request: UpgradeRequest) -> UpgradeLogin { inner.login(forUpgrade: request) }
    func refusal(forUpgrade end: SessionEnd) -> UpgradeRefusal { inner.refusal(forUpgrade: end) }
    var isInBackground: Bool { inner.isInBackground }
    var greeting: [WireMessage] { inner.greeting }
    mutating func observe(serverTimeMs: Int64) { inner.observe(serverTimeMs: serverTimeMs) }
    var deliveryConfirmation: DeliveryConfirmation { inner.deliveryConfirmation }
    var minimumIdleTimeout: Duration? { inner.minimumIdleTimeout }
}
