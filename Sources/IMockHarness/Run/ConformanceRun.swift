import Dispatch
import IMockCommon
import Synchronization

/// A conformance run (`imock run`): loads the fixtures, filters, runs and reports them (exit 0
/// passed, 1 failures, 64 usage, 65 invalid fixture, 69 the `--server` cannot be used).
public enum ConformanceRun {
    /// The exit status of a run whose `--server` cannot be used (not reachable, admin secret
    /// refused, clock not virtual): `EX_UNAVAILABLE` of sysexits.h; nothing was run.
    public static let serverUnavailableExitCode: Int32 = 69

    /// Runs `configuration` to the end on the calling thread; the exit status.
    public static func runBlocking(_ configuration: RunConfiguration) -> Int32 {
        if configuration.settings.target != .inProcess { InterruptCleanup.install() }
        let status = SharedCounter(0)
        let done = DispatchSemaphore(value: 0)
        Task {
            status.set(await run(configuration))
            done.signal()
        }
        done.wait()
        return status.value
    }

    /// Runs `configuration`: loads, filters, runs and reports. The exit status.
    public static func run(_ configuration: RunConfiguration, output: @escaping @Sendable (String) -> Void = { print($0) }) async -> Int32 {
        let files: [String]
        do { files = try FixtureLoader.files(configuration.paths) } catch {
            // A path that does not exist is bad usage, not a bad fixture.
            printError("imock run: \(error)\nRun 'imock run --help' for the options.")
            return UsageError.exitCode
        }
        let (loaded, errors) = FixtureLoader.load(files)
        guard errors.isEmpty else {
            for error in errors { printError("invalid fixture: \(error)") }
            printError("imock run: \(errors.count) invalid fixture\(errors.count == 1 ? "" : "s"); nothing was run")
            writeStopped(configuration, suite: "invalid", type: "invalidFixture", errors.map { ($0.file, "invalid fixture: \($0)") })
            return FixtureError.exitCode
        }
        if configuration.coverage {
            let (text, missing) = Coverage.report(loaded)
            output(text)
            return missing.isEmpty ? 0 : 1
        }
        let fixtures = configuration.filters.isEmpty
            ? loaded : loaded.filter { fixture in configuration.filters.contains { FixtureLoader.matches(fixture, filter: $0) } }
        guard !fixtures.isEmpty else {
            printError("imock run: no fixture matches \(configuration.filters.joined(separator: ", "))")
            return 1
        }
        if let problem = await ScenarioServer.problem(with: configuration.settings.target, appKey: configuration.settings.appKey) {
            printError("imock run: \(problem); nothing was run")
            writeStopped(configuration, suite: "server", type: "serverUnavailable", [("--server", problem)])
            return serverUnavailableExitCode
        }
        var configuration = configuration
        if configuration.recordDirectory != nil { configuration.settings.recordings = RecordingSink() }
        let started = ContinuousClock.now
        let results = await runAll(fixtures, configuration: configuration, output: output)
        if let directory = configuration.recordDirectory, let sink = configuration.settings.recordings {
            do { _ = try sink.write(to: directory) } catch {
                printError("imock run: cannot write the recordings: \(error)")
                return 1
            }
        }
        let wall = ContinuousClock.now - started
        output(ConsoleReport.render(results, verbose: configuration.verbose))
        output(ConsoleReport.summary(results, wall: wall))
        do {
            if let path = configuration.junitPath { try write(JUnitReport.render(results), to: path) }
            if let path = configuration.jsonPath { try write(JSONReport.render(results, settings: configuration.settings), to: path) }
            if let path = configuration.htmlPath { try write(HTMLReport.render(results), to: path) }
        } catch {
            printError("imock run: cannot write a report: \(error)")
            return 1
        }
        return results.contains { $0.outcome.isFailure } ? 1 : 0
    }

    /// Runs fixtures, `jobs` at a time, printing a progress line as each finishes; results in
    /// input order. On an external server the virtual clock is shared by every app, so fixtures
    /// that move it run one at a time, after the others ran `jobs` at a time; fixtures that share
    /// an existing app there (`--app-key`) all run one at a time.
    public static func runAll(_ fixtures: [Fixture], configuration: RunConfiguration, output: @escaping @Sendable (String) -> Void) async
        -> [ScenarioResult]
    {
        let counter = SharedCounter(0)
        let indexed = Array(fixtures.enumerated())
        var phases = [(indexed, configuration.jobs)]
        if case .external = configuration.settings.target, configuration.settings.appKey != nil {
            phases = [(indexed, 1)]
        } else if case .external = configuration.settings.target, configuration.jobs > 1 {
            phases = [(indexed.filter { !$0.element.movesClock }, configuration.jobs), (indexed.filter { $0.element.movesClock }, 1)]
        }
        var results = [ScenarioResult?](repeating: nil, count: fixtures.count)
        let pool = AdapterPool()
        for (members, jobs) in phases {
            for (index, result) in await run(
                members, jobs: jobs, total: fixtures.count, counter: counter, pool: pool, configuration: configuration, output: output)
            {
                results[index] = result
            }
        }
        await pool.closeAll()
        return results.compactMap { $0 }
    }

    private static func run(
        _ fixtures: [(offset: Int, element: Fixture)], jobs: Int, total: Int, counter: SharedCounter, pool: AdapterPool,
        configuration: RunConfiguration,
        output: @escaping @Sendable (String) -> Void
    ) async -> [(Int, ScenarioResult)] {
        await withTaskGroup(of: (Int, ScenarioResult).self) { group in
            var results: [(Int, ScenarioResult)] = []
            var next = 0
            func launch() {
                let (index, fixture) = fixtures[next]
                next += 1
                group.addTask {
                    let result = await ScenarioRun(fixture: fixture, settings: configuration.settings, index: index, pool: pool).run()
                    output(ConsoleReport.progress(result, done: Int(counter.increment()), total: total))
                    return (index, result)
                }
            }
            while next < min(jobs, fixtures.count) { launch() }
            while let finished = await group.next() {
                results.append(finished)
                if next < fixtures.count { launch() }
            }
            return results
        }
    }

    /// Writes the JUnit report of a run stopped before it ran anything, when one is asked for.
    private static func writeStopped(_ configuration: RunConfiguration, suite: String, type: String, _ problems: [(String, String)]) {
        guard let path = configuration.junitPath else { return }
        do {
            try write(JUnitReport.stopped(suite: suite, type: type, problems: problems.map { (name: $0.0, message: $0.1) }), to: path)
        } catch {
            printError("imock run: cannot write a report: \(error)")
        }
    }

    static func write(_ text: String, to path: String) throws {
        try Files.writeAtomically(path, Array(text.utf8))
    }

    static func printError(_ message: String) {
        StandardError.write(message)
    }
}

/// A number shared by tasks: the exit status, the count of finished fixtures.
final class SharedCounter: Sendable {
    private let cell: Mutex<Int32>
    init(_ value: Int32) { cell = Mutex(value) }
    var value: Int32 { cell.withLock { $0 } }
    func set(_ value: Int32) { cell.withLock { $0 = value } }
    func increment() -> Int32 { cell.withLock { $0 += 1; return $0 } }
}
