import Dispatch
import IMockClient
import IMockCommon
import IMockCore

/// `imock explore` from its configuration to its exit status: explores, prints each finding
/// with its timeline and the seed that reproduces it, writes each shrunk fixture to the output
/// directory and the reports (exit 0 no finding, 1 findings, 64 usage).
public enum ExploreRun {
    /// Where the findings go and which reports are written.
    public struct Output: Sendable {
        /// The directory of the findings' fixtures.
        public var directory = "explore-findings"
        /// `--json`, `--junit`, `--html`.
        public var jsonPath: String?
        public var junitPath: String?
        public var htmlPath: String?
        /// Print a line per program, not only per finding.
        public var verbose = false

        /// Findings in `explore-findings`, no reports.
        public init() {}
    }

    /// Runs to the end on the calling thread; the exit status.
    public static func runBlocking(_ configuration: ExploreConfiguration, output: Output) -> Int32 {
        let status = SharedCounter(0)
        let done = DispatchSemaphore(value: 0)
        Task {
            status.set(await run(configuration, output: output))
            done.signal()
        }
        done.wait()
        return status.value
    }

    /// Explores and reports; the exit status.
    public static func run(_ configuration: ExploreConfiguration, output: Output, print: @escaping @Sendable (String) -> Void = { Swift.print($0) })
        async -> Int32
    {
        let transport = configuration.settings.transport.rawValue
        print("imock explore: seed \(configuration.seed), \(configuration.runs) programs of about \(configuration.steps) operations, profile \(configuration.profile.rawValue), transport \(transport)")
        let started = ContinuousClock.now
        let verbose = output.verbose
        let (findings, programs) = await Explorer.explore(configuration) { line, isFinding in
            if verbose || isFinding { print(line) }
        }
        var results: [ScenarioResult] = []
        for finding in findings {
            let path = output.directory + "/" + Explorer.fileName(property: finding.property, seed: finding.seed)
            var result = finding.result
            result.file = path
            results.append(result)
            print(report(finding, path: path))
            do {
                try Files.makeDirectories(output.directory)
                try Files.writeAtomically(path, Array(finding.fixture.prettyString.utf8))
            } catch {
                StandardError.write("imock explore: cannot write \(path): \(error)")
                return 1
            }
        }
        let wall = ContinuousClock.now - started
        print("\(programs) programs, \(findings.count) finding\(findings.count == 1 ? "" : "s") in \(wall.components.seconds) s (seed \(configuration.seed))")
        let passing = configuration.properties.filter { property in !findings.contains { $0.property.id == property.id } }.map(passed)
        do {
            if let path = output.junitPath { try Files.writeAtomically(path, Array(JUnitReport.render(results + passing).utf8)) }
            if let path = output.htmlPath { try Files.writeAtomically(path, Array(HTMLReport.render(results + passing).utf8)) }
            if let path = output.jsonPath {
                try Files.writeAtomically(path, Array(json(results + passing, findings: findings, configuration: configuration).utf8))
            }
        } catch {
            StandardError.write("imock explore: cannot write a report: \(error)")
            return 1
        }
        return findings.isEmpty ? 0 : 1
    }

    /// A finding for the console: the property, the seed, the fixture and its failing run.
    static func report(_ finding: ExploreFinding, path: String) -> String {
        """
        FINDING \(finding.property.id) (\(finding.property.rules.joined(separator: ", "))): \(finding.property.summary)
          \(finding.violation.message)
          seed \(finding.seed): reproduce with imock explore --seed \(finding.seed) --runs 1 (same --steps, --profile, --transport)
          shrunk from \(finding.original.operations.count) to \(finding.program.operations.count) operations, \(finding.program.devices.count) device(s): \(path)
          run it: imock run \(path)
        \(ConsoleReport.scenario(finding.result))
        """
    }

    /// A property no program broke, as a passing case of the reports.
    static func passed(_ property: ExploreProperty) -> ScenarioResult {
        ScenarioResult(
            file: "explore:\(property.id)", name: property.summary, rules: property.ruleReferences, devices: [], outcome: .passed,
            note: nil, divergence: nil, timeline: [], startMs: 0, virtualMs: 0, wallMs: 0)
    }

    /// The JSON report of `imock run` (docs/FIXTURES.md § Reports) with `tool` `imock explore`
    /// and an `explore` member: the settings and each finding.
    static func json(_ results: [ScenarioResult], findings: [ExploreFinding], configuration: ExploreConfiguration) -> String {
        var settings = configuration.settings
        settings.seedRandom = configuration.seed
        guard case .object(var members)? = try? JSONValue.parse(Array(JSONReport.render(results, settings: settings).utf8)) else { return "" }
        if let tool = members.firstIndex(where: { $0.key == "tool" }) { members[tool].value = "imock explore" }
        members.append((
            "explore",
            [
                "seed": .string(String(configuration.seed)), "runs": .int(Int64(configuration.runs)), "steps": .int(Int64(configuration.steps)),
                "profile": .string(configuration.profile.rawValue), "transport": .string(configuration.settings.transport.rawValue),
                "unknown": .array(configuration.unknown.sorted().map { .string($0) }),
                "findings": .array(findings.map { finding in
                    [
                        "property": .string(finding.property.id), "rules": .array(finding.property.rules.map { .string($0) }),
                        "seed": .string(String(finding.seed)), "message": .string(finding.violation.message),
                        "device": .string(finding.violation.device),
                        "operations": .int(Int64(finding.program.operations.count)),
                        "generatedOperations": .int(Int64(finding.original.operations.count)),
                        "fixture": finding.fixture,
                    ]
                }),
            ]
        ))
        return JSONValue.object(members).encodedString + "\n"
    }
}
