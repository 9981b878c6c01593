import IMockClient
import IMockCommon
import IMockCore
import Synchronization

/// Runs one fixture against a server: sets up its apps and devices, plays its steps, checks its
/// expectations and keeps a timeline for the reports.
public final class ScenarioRun {
    let fixture: Fixture
    let settings: RunSettings
    let index: Int
    /// What the harness draws for this fixture (``RunSettings/random(forFixture:)``).
    let random: RandomSource
    let observations = Observations()
    var server: ScenarioServer!
    var time: ScenarioTime!
    var apps: [String: ServerApp] = [:]
    /// The export of the `--app-key` app before the fixture (external server), put back after it.
    var existingApp: JSONValue?
    var adapters: [String: any DeviceAdapter] = [:]
    var credentials: [String: (id: String, secret: String)] = [:]
    var tokens: [String: String] = [:]
    /// The user each device is logged in as, or last asked to log in as.
    var currentUser: [String: String] = [:]
    /// The resource each device logged in under (an SDK may choose its own).
    var resources = DeviceResources()
    /// Values captured by steps, in order (``StepCapture``), and the last REST or control answer.
    var captured: [(key: String, value: JSONValue)] = []
    var lastAnswer: JSONValue?
    /// Fault steps with `when`, waiting for their callback (``fireArmedFaults()``).
    var armedFaults: [(call: ControlCall, pattern: CallbackPattern, mark: UInt64)] = []
    /// Results of device calls by step index, once completed.
    let results = ResultBox()
    /// The active network faults: id, device (nil: app or user wide), kind, end.
    var faults: [(id: Int64, device: String?, user: String?, kind: String, endsAtMs: Int64?)] = []
    var timeline: [TimelineEvent] = []
    /// Clock moves not yet merged into the timeline.
    var clockMoves: [(fromMs: Int64, toMs: Int64)] = []
    /// The number (`seq`) of the last journal entry of each app the timeline took.
    var journalSeen: [String: Int64] = [:]
    /// The number of the last journal entry of each app given to the ordering barrier
    /// (``orderThroughAdapters(since:)``).
    var barrierSeen: [String: Int64] = [:]
    /// The journal the ordering barrier fetched after a step settled, by app, left for the
    /// timeline that reads it right after (``journalEntries(of:after:)``): one fetch per step.
    var settledJournal: [String: [JSONValue]] = [:]
    /// What `sent` checks have seen (Record/ScenarioRun+Sent.swift).
    var sentState = SentState()
    var serverSequence: Int64 = 0
    var timelineMark: UInt64 = 0
    var windowMark: UInt64 = 0
    var groupMark: UInt64 = 0
    var labels: [String: UInt64] = [:]

    /// The run's external adapter processes (shared by its fixtures), and whether this fixture
    /// made the pool itself (then it ends its processes).
    let pool: AdapterPool
    private let ownsPool: Bool

    /// Prepares a run of `fixture`, the `index`-th of the run (for unique app names); external
    /// adapters come from `pool` (the run's), else from a pool of its own.
    public init(fixture: Fixture, settings: RunSettings, index: Int, pool: AdapterPool? = nil) {
        self.fixture = fixture
        self.settings = settings
        self.index = index
        self.random = settings.random(forFixture: index)
        self.pool = pool ?? AdapterPool()
        self.ownsPool = pool == nil
    }

    /// Runs the fixture; never throws: problems are the result's divergence.
    public func run() async -> ScenarioResult {
        let wallStart = ContinuousClock.now
        var divergence: Divergence?
        var skipped: String?
        var startMs: Int64 = 0
        do throws(ScenarioFailure) {
            skipped = try await setUp()
            startMs = time?.startMs ?? 0
            if skipped == nil { divergence = await playSteps() }
        } catch {
            divergence = Divergence(stepIndex: -1, stepPath: "", stepSummary: "set-up", failure: error, atMs: startMs)
        }
        await finishRecording()
        await tearDown()
        let (outcome, note) = skipped.map { (ScenarioOutcome.skipped, $0) } ?? verdict(divergence)
        let wall = ContinuousClock.now - wallStart
        return ScenarioResult(
            file: fixture.file, name: fixture.name, rules: fixture.rules, devices: fixture.devices.map(\.name),
            outcome: outcome, note: note, divergence: divergence, timeline: timeline,
            startMs: startMs, virtualMs: (time?.nowMs ?? startMs) - startMs,
            wallMs: wall.components.seconds * 1000 + wall.components.attoseconds / 1_000_000_000_000_000)
    }

    /// The outcome of a run that ended with `divergence` (nil: every step held), given the
    /// fixture's expected failures that hold for this run's transport and adapters, and its note.
    private func verdict(_ divergence: Divergence?) -> (ScenarioOutcome, String?) {
        let driving = Set(fixture.devices.map(adapterName))
        let named = driving.union(driving.compactMap { (adapters[$0] as? ProcessAdapter)?.ownName })
        let expected = fixture.expectedFailures(transport: settings.transport, adapters: named)
        guard !expected.isEmpty else { return (divergence == nil ? .passed : .failed, nil) }
        let marks = expected.map { "\($0.reason) (\($0.summary))" }.joined(separator: "; ")
        guard let divergence else { return (.unexpectedPass, marks) }
        if let match = expected.first(where: { $0.matches(divergence) }) { return (.expectedFailure, match.reason) }
        let how = divergence.stepIndex < 0 ? "it failed in set-up" : divergence.failure.isInfrastructure
            ? "the harness could not run it" : "it failed elsewhere"
        return (.failed, "marked as an expected failure — \(marks) — but \(how): this is not that failure")
    }

    // MARK: Set-up

    /// Starts the server, seeds the apps, creates the adapters and the auto-initialised devices;
    /// returns a reason when the fixture cannot run with the configured adapters.
    private func setUp() async throws(ScenarioFailure) -> String? {
        server = try await ScenarioServer.start(
            settings.target, seedRandom: settings.seedRandom, random: random, tokenWarningPercent: settings.tokenWarningPercent)
        for app in fixture.apps { apps[app.name] = serverApp(app.name) }
        try await keepExistingApp()
        try await seed()
        try await startRecording()
        let startMs = try await server.link.control("GET", "clock")["nowMs"]?.intValue ?? 0
        let clock = server.link.deviceTimeline
        adapters["reference"] = ReferenceAdapter(
            loop: server.loop, endpoint: server.socketEndpoint, timeline: clock, observations: observations,
            transport: settings.transport, plantedBug: settings.plantedClientBug)
        for name in Set(fixture.devices.map(adapterName)) where name != "reference" {
            guard let command = settings.adapters[name] else {
                return "no adapter \"\(name)\" configured (imock run --adapter \(name)=COMMAND)"
            }
            adapters[name] = try await pool.acquire(
                name: name, command: command, helloLimit: settings.helloTimeout, observations: observations, clock: { clock.nowMs })
        }
        if let reason = unsupported() { return reason }
        let used = Array(Set(fixture.devices.map(adapterName))).sorted().compactMap { adapters[$0] }
        time = ScenarioTime(
            startMs: startMs, link: server.link, adapters: used, observations: observations,
            apps: fixture.apps.compactMap { apps[$0.name] }, tokenWarningPercent: server.tokenWarningPercent)
        time.waitGuard = WaitGuard(limit: settings.stepTimeout)
        time.impairedDevices = { [weak self] in self?.impairedDevices() ?? [] }
        time.onMove = { [weak self] from, to in self?.clockMoves.append((from, to)) }
        time.afterRound = { [weak self] () async throws(ScenarioFailure) -> Bool in try await self?.fireArmedFaults() ?? false }
        for device in fixture.devices where device.initMode == .auto {
            try await command(device.name, .initialize(setup(device)), "init")
            try await command(device.name, .addDelegate, "addDelegate")
        }
        try await time.settle()
        return nil
    }

    func adapterName(_ device: FixtureDevice) -> String { settings.adapterOverride ?? device.adapter }

    func adapter(of device: String) -> any DeviceAdapter {
        adapters[adapterName(fixture.device(device)!)]!
    }

    /// Why an external adapter cannot run this fixture (a command or profile it lacks), if so.
    private func unsupported() -> String? {
        for device in fixture.devices {
            let adapter = adapters[adapterName(device)]!
            if let profiles = adapter.supportedProfiles, !profiles.contains(device.profile.rawValue) {
                return "adapter \(adapter.name) does not render the \(device.profile.rawValue) profile (device \(device.name))"
            }
            guard let commands = adapter.supportedCommands else { continue }
            for step in fixture.steps {
                guard case .device(let action) = step.kind, action.device == device.name else { continue }
                let needed = action.call.commandNames
                if let missing = needed.first(where: { !commands.contains($0) }) {
                    return "adapter \(adapter.name) does not support \(missing) (\(step.path))"
                }
            }
        }
        return nil
    }

    func setup(_ device: FixtureDevice) -> DeviceSetup {
        let seed = (settings.seedRandom ?? 7) &+ UInt64(fixture.devices.firstIndex { $0.name == device.name } ?? 0)
        return DeviceSetup(device: device, appKey: apps[device.app]!.key, serverURL: server.socketURL, randomSeed: seed)
    }

    /// Creates each app with its settings and users (`POST /_imock/seed`).
    private func seed() async throws(ScenarioFailure) {
        var documents: [JSONValue] = []
        for app in fixture.apps {
            let id = "harness-\(app.name)"
            let secret = "secret-" + String(random.next(), radix: 36)
            credentials[app.name] = (id, secret)
            var members: [(key: String, value: JSONValue)] = [
                ("appKey", .string(apps[app.name]!.key)), ("clientId", .string(id)), ("clientSecret", .string(secret)),
            ]
            members += app.settings
            members.append((
                "users",
                .array(app.users.map { ["username": .string($0.username), "password": .string($0.password), "activated": .bool($0.activated)] })
            ))
            if app.name == fixture.apps[0].name, let existing = existingAppDocument(members) {
                members = existing
                credentials[app.name] = (existing.first { $0.key == "clientId" }?.value.stringValue ?? id,
                                         existing.first { $0.key == "clientSecret" }?.value.stringValue ?? secret)
            }
            documents.append(.object(members))
        }
        let answer = try await server.link.call(
            "POST", "/_imock/seed", bearer: server.link.adminSecret, body: ["version": 1, "apps": .array(documents)])
        guard answer.status == 200 else {
            throw .infrastructure("the server refused the fixture's apps: \(answer.body["error_description"]?.stringValue ?? "\(answer.status)")")
        }
        if settings.target != .inProcess { noteCreatedApps() }
    }

    /// Ends the devices and the server; on a shared external server also the fixture's faults
    /// and apps, whether it passed or not (``clearFaults()``, ``removeApps()``: removing an app
    /// kicks the sessions its devices leave with 207; an `--app-key` app is put back instead,
    /// ``restoreExistingApp()``).
    private func tearDown() async {
        let shared = settings.target != .inProcess && server != nil
        // Faults first: a black-holed connection reads its close only once its fault is gone.
        if shared { await clearFaults() }
        for adapter in adapters.values {
            if let process = adapter as? ProcessAdapter { await pool.release(process) } else { await adapter.close() }
        }
        if ownsPool { await pool.closeAll() }
        if shared {
            await removeApps()
            await restoreExistingApp()
        }
        await server?.stop()
    }

    // MARK: Steps

    private func playSteps() async -> Divergence? {
        var previousWasCheck = false
        for (index, step) in fixture.steps.enumerated() {
            observations.setStep(index)
            time.waitGuard = WaitGuard(limit: settings.stepTimeout)
            let isCheck: Bool
            if case .expect = step.kind { isCheck = true } else { isCheck = false }
            if isCheck && !previousWasCheck { groupMark = windowMark }
            if !isCheck && previousWasCheck { windowMark = observations.lastSequence }
            if let label = step.label { labels[label] = observations.lastSequence }
            if !isCheck {
                timeline.append(.step(index: index, path: step.path, summary: step.summary, device: step.device, atMs: time.nowMs))
            }
            let stepMark = observations.lastSequence
            do throws(ScenarioFailure) {
                try await perform(try resolved(step), index: index)
                try capture(step, index: index)
                if !isCheck {
                    try await time.settle()
                    try await orderThroughAdapters(since: stepMark)
                }
                try await collectTimeline()
                if isCheck { timeline.append(.check(index: index, summary: step.summary, passed: true, atMs: time.nowMs)) }
            } catch {
                try? await collectTimeline()
                if isCheck { timeline.append(.check(index: index, summary: step.summary, passed: false, atMs: time.nowMs)) }
                return Divergence(stepIndex: index, stepPath: step.path, stepSummary: step.summary, failure: error, atMs: time.nowMs)
            }
            previousWasCheck = isCheck
        }
        return nil
    }

    private func perform(_ step: Step, index: Int) async throws(ScenarioFailure) {
        await recordCall(step)
        switch step.kind {
        case .device(let action): try await perform(action, index: index)
        case .rest(let call): try await perform(call)
        case .control(let call): try await perform(call)
        case .network(let change): try await perform(change)
        case .advance(let ms): try await time.advance(by: ms)
        case .issueToken(let name, let source): tokens[name] = try await token(source, device: nil)
        case .expect(let expectation): try await check(expectation)
        }
    }

    /// Runs an adapter command now and fails the step when the adapter refuses it.
    @discardableResult
    func command(_ device: String, _ command: AdapterCommand, _ what: String) async throws(ScenarioFailure) -> JSONValue {
        let adapter = adapter(of: device)
        let reply = try await time.waitGuard.run("device \(device): \(what)") { await adapter.execute(device: device, command) }
        switch reply {
        case .result(let value): return value
        case .refused(let reason): throw .infrastructure("device \(device) could not \(what): \(reason)", device: device)
        }
    }
}

/// Device call results by step index, written by the calls' tasks.
final class ResultBox: Sendable {
    private let values = Mutex<[Int: JSONValue]>([:])

    subscript(index: Int) -> JSONValue? {
        get { values.withLock { $0[index] } }
        set { values.withLock { $0[index] = newValue } }
    }
}
