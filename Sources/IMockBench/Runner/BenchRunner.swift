#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import Dispatch
import IMockCommon
import IMockCore
import Synchronization

/// Runs `imock bench`: every chosen scenario against imock (and, with `--compare`, against the
/// baselines, round after round), printing each report as it comes and the comparison last.
public enum BenchRunner {
    /// Runs `options`; `output` gets every line. Returns the exit status: 0, or 1 when a
    /// scenario failed (skipped ones do not count).
    public static func run(
        _ options: BenchConfiguration, environment: [String: String], output: @escaping @Sendable (String) -> Void
    ) async -> Int32 {
        _ = cimock_raise_nofile_limit(1 << 20)
        let client: ClientLoop
        let launcher: ServerLauncher
        do {
            client = try ClientLoop()
            launcher = try makeLauncher(options, environment: environment)
        } catch {
            output("imock bench: \(error)")
            return 1
        }
        defer {
            client.stop()
            try? Files.removeTree(launcher.workDirectory)
        }
        let context = ScenarioContext(options: options, launcher: launcher, client: client)
        let machine = MachineInfo.current(launcher: launcher)
        output(options.json ? machine.json.encodedString : machine.line)
        let chosen = options.scenarios.isEmpty ? BenchScenarios.all : options.scenarios.map(BenchScenarios.scenario)
        var reports: [ScenarioReport] = []
        var failed = false
        for round in 1...options.rounds {
            if options.compare, !options.json { output("round \(round) of \(options.rounds)") }
            for scenario in chosen {
                let servers: [ServerKind?] =
                    scenario.servers.isEmpty ? [nil] : options.compare ? scenario.servers : [scenario.servers[0]]
                for server in servers {
                    let serverName = server?.rawValue ?? "in-process"
                    let results: [ScenarioReport]
                    if let reason = unavailable(server, launcher) {
                        results = [.skipped(scenario.name.rawValue, server: serverName, load: "-", reason: reason)]
                    } else {
                        do {
                            results = try await scenario.run(on: server, context)
                        } catch {
                            failed = true
                            results = [.skipped(scenario.name.rawValue, server: serverName, load: "-", reason: "failed: \(error)")]
                        }
                    }
                    for report in results {
                        reports.append(report)
                        if options.json { output(report.json.encodedString) } else { report.rows.forEach(output) }
                    }
                }
            }
        }
        if options.compare {
            let comparison = Comparison(reports)
            if options.json {
                comparison.json.forEach { output($0.encodedString) }
            } else {
                output("medians of \(options.rounds) rounds; imock/<baseline>: times better (rates imock÷baseline, latencies baseline÷imock)")
                comparison.rows.forEach(output)
            }
        }
        return failed ? 1 : 0
    }

    /// Runs `options` blocking the calling thread (for the command line).
    public static func runBlocking(_ options: BenchConfiguration, environment: [String: String]) -> Int32 {
        let status = Mutex<Int32>(1)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result = await run(options, environment: environment) { print($0) }
            status.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return status.withLock { $0 }
    }

    private static func unavailable(_ server: ServerKind?, _ launcher: ServerLauncher) -> String? {
        switch server {
        case .python?: launcher.pythonMock == nil ? "bench/python_mock.py not found (or python3 lacks aiohttp/websockets)" : nil
        case .nginx?: launcher.nginx == nil ? "nginx is not installed" : nil
        default: nil
        }
    }

    private static func makeLauncher(_ options: BenchConfiguration, environment: [String: String]) throws(BenchError) -> ServerLauncher {
        let executable = options.imockExecutable ?? (Files.linkTarget("/proc/self/exe") ?? "imock")
        let work = Files.temporaryDirectory + "/imock-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try Files.makeDirectories(work)
        } catch {
            throw BenchError("cannot create \(work): \(error)")
        }
        return ServerLauncher(
            imockExecutable: executable,
            wrapper: options.serverWrapper.map { $0.split(separator: " ").map(String.init) } ?? [],
            pythonMock: PythonBaseline.locate(options.pythonMock, executable: executable),
            nginx: ServerLauncher.findExecutable("nginx", environment: environment), workDirectory: work)
    }
}
