import IMockClient
import IMockCore

/// What `imock explore` does: how many programs, how large, against what.
public struct ExploreConfiguration: Sendable {
    /// The first program's seed; program k has seed `seed + k`.
    public var seed: UInt64 = 1
    /// How many programs.
    public var runs = 100
    /// About how many operations each.
    public var steps = 12
    /// The devices' callback vocabulary.
    public var profile: SDKProfile = .easemob
    /// How each program runs (transport, adapters); `seedRandom` is set per program.
    public var settings = RunSettings()
    /// Property ids or rule ids already known not to hold for this client: not reported.
    public var unknown: Set<String> = []
    /// At most this many candidate runs while shrinking one finding.
    public var shrinkBudget = 400
    /// The external adapters' processes, shared by every program of an exploration.
    var pool: AdapterPool?

    /// Defaults: 100 programs of about 12 operations, easemob, the reference client on imock JSON.
    public init() {}

    /// The properties checked: those of the profile that are not declared unknown.
    public var properties: [ExploreProperty] {
        ExploreProperty.all.filter { $0.profiles.contains(profile) && !$0.isNamed(by: unknown) }
    }
}

/// A property a program broke, shrunk to a small program and written as a fixture.
public struct ExploreFinding: Sendable {
    /// The seed of the program that found it (`imock explore --seed N --runs 1` runs it again).
    public var seed: UInt64
    /// The property.
    public var property: ExploreProperty
    /// The program as generated, and its violation.
    public var original: ExploreProgram
    /// The shrunk program and its violation.
    public var program: ExploreProgram
    public var violation: ExploreViolation
    /// The shrunk program as a fixture document, its violation's witness among its steps.
    public var fixture: JSONValue
    /// The run of that fixture (failing at the witness, where the finding reproduces).
    public var result: ScenarioResult
}

/// Generates programs, runs each as a fixture, checks the properties on its trace, and shrinks
/// what fails.
public enum Explorer {
    /// Runs `configuration.runs` programs; the findings, one per failing program.
    /// `progress` gets a line per program, and whether it is a finding.
    public static func explore(_ configuration: ExploreConfiguration, progress: @escaping @Sendable (String, Bool) -> Void = { _, _ in })
        async -> (findings: [ExploreFinding], programs: Int)
    {
        let generator = ExploreGenerator(profile: configuration.profile, steps: configuration.steps)
        // One adapter process per external adapter for the whole exploration (reset between programs).
        let pool = AdapterPool()
        var configuration = configuration
        configuration.pool = pool
        var findings: [ExploreFinding] = []
        for run in 0..<configuration.runs {
            let seed = configuration.seed &+ UInt64(run)
            var program = generator.program(seed: seed)
            var (trace, found) = await check(program, seed: seed, configuration: configuration)
            // A generated kick or REST call may miss (its device was already gone): drop it, run again.
            // So too the operations an adapter cannot do.
            while found == nil, let stopped = trace {
                if let command = stopped.unsupportedCommand {
                    let before = program.operations.count
                    program.operations.removeAll { $0.commandName == command }
                    guard program.operations.count < before else { break }
                } else if stopped.stoppedOnMissingTarget, stopped.completedOperations < program.operations.count {
                    program.operations.remove(at: stopped.completedOperations)
                } else {
                    break
                }
                (trace, found) = await check(program, seed: seed, configuration: configuration)
            }
            guard let (property, violation) = found else {
                let ran = trace.map { "\($0.completedOperations) of \(program.operations.count) operations" + ($0.stoppedBecause.map { "; stopped at \($0)" } ?? "") }
                    ?? "not a valid fixture"
                progress("[\(run + 1)/\(configuration.runs)] seed \(seed): ok (\(ran))", false)
                continue
            }
            progress("[\(run + 1)/\(configuration.runs)] seed \(seed): \(property.id) (\(property.rules.joined(separator: ", "))): \(violation.message); shrinking", true)
            findings.append(await finding(program, property: property, violation: violation, seed: seed, configuration: configuration))
        }
        await pool.closeAll()
        return (findings, configuration.runs)
    }

    /// Runs `program` and checks `properties` on its trace: the trace and the first violation.
    static func check(_ program: ExploreProgram, seed: UInt64, configuration: ExploreConfiguration, only: ExploreProperty? = nil)
        async -> (ExploreTrace?, (ExploreProperty, ExploreViolation)?)
    {
        guard let trace = await run(program, seed: seed, settings: configuration.settings, pool: configuration.pool) else { return (nil, nil) }
        for property in only.map({ [$0] }) ?? configuration.properties {
            if let violation = property.check(trace, program) { return (trace, (property, violation)) }
        }
        return (trace, nil)
    }

    /// The trace of one run of `program` (nil when it is not a valid fixture: a generator bug).
    static func run(_ program: ExploreProgram, seed: UInt64, settings: RunSettings, pool: AdapterPool?) async -> ExploreTrace? {
        guard let fixture = try? program.fixture(listenMs: listenMs(settings)) else { return nil }
        var settings = settings
        settings.seedRandom = seed
        let result = await ScenarioRun(fixture: fixture, settings: settings, index: 0, pool: pool).run()
        let steps = Dictionary(uniqueKeysWithValues: program.operations.indices.map { ($0, $0) })
        var trace = ExploreTrace(result: result, program: program, operationOfStep: steps)
        trace.transport = settings.transport
        return trace
    }

    /// How long the end of a program listens to a real-time adapter: only when an external
    /// adapter drives the devices (for the reference client it would move the clock for nothing).
    static func listenMs(_ settings: RunSettings) -> Int64? {
        guard settings.adapterOverride != nil else { return nil }
        let (seconds, attoseconds) = settings.realTimeQuiet.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Shrinks a failing program and writes it as a fixture with the violation's witness.
    static func finding(
        _ program: ExploreProgram, property: ExploreProperty, violation: ExploreViolation, seed: UInt64, configuration: ExploreConfiguration
    ) async -> ExploreFinding {
        var shrinker = ExploreShrinker(budget: configuration.shrinkBudget) { candidate in
            await check(candidate, seed: seed, configuration: configuration, only: property).1?.1
        }
        let (small, smallViolation) = await shrinker.shrink(program, violation)
        let document = findingDocument(
            small, property: property, violation: smallViolation, seed: seed, configuration: configuration, from: program.operations.count)
        var settings = configuration.settings
        settings.seedRandom = seed
        var result: ScenarioResult
        do {
            var fixture = try FixtureParser.parse(document.encoded(), file: fileName(property: property, seed: seed))
            fixture.file = fileName(property: property, seed: seed)
            result = await ScenarioRun(fixture: fixture, settings: settings, index: 0, pool: configuration.pool).run()
        } catch {
            result = ScenarioResult(
                file: fileName(property: property, seed: seed), name: property.id, rules: property.ruleReferences, devices: [],
                outcome: .failed, note: "the shrunk program is not a valid fixture: \(error)", divergence: nil, timeline: [],
                startMs: 0, virtualMs: 0, wallMs: 0)
        }
        return ExploreFinding(
            seed: seed, property: property, original: program, program: small, violation: smallViolation, fixture: document, result: result)
    }

    /// The file name of a finding's fixture.
    public static func fileName(property: ExploreProperty, seed: UInt64) -> String {
        "explore-\(property.id)-seed\(seed).json"
    }

    /// A finding as a fixture: the shrunk program, the witness after the operation where the
    /// violation showed (operations after it are left out), the rules cited.
    static func findingDocument(
        _ program: ExploreProgram, property: ExploreProperty, violation: ExploreViolation, seed: UInt64, configuration: ExploreConfiguration,
        from generated: Int
    ) -> JSONValue {
        var kept = program
        if violation.witness != .connected { kept.operations = Array(program.operations.prefix(violation.operation + 1)) }
        let labels = violation.since.map { [min($0, kept.operations.count - 1): "explore-since"] } ?? [:]
        let transport = configuration.settings.transport == .imockJSON ? "" : " --transport \(configuration.settings.transport.rawValue)"
        return kept.fixtureDocument(
            name: property.rules.joined(separator: " ") + " explore finding: " + property.summary,
            description: violation.message + ". Found by imock explore --seed \(seed) --runs 1 --steps \(configuration.steps) --profile \(configuration.profile.rawValue)\(transport), shrunk from \(generated) operations.",
            rules: property.ruleReferences, labels: labels, checks: [(kept.operations.count - 1, violation.expectation())],
            listenMs: listenMs(configuration.settings))
    }
}
