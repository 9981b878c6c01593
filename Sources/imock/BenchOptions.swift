import IMockBench
import IMockCommon

/// The command line of `imock bench`: its options and scenario names make a ``BenchConfiguration``.
enum BenchOptions {
    /// The declarations of `imock bench`: they parse the arguments and write `--help`.
    static let spec = CommandLineSpec<BenchConfiguration>(
        name: "bench",
        summary: "Measures the IM work of imock: REST in bulk, login storms (also over TLS), a logged-in fleet, kick "
            + "fan-out, 1:1 and offline messages, the fixture catalogue, and the transport figures of an in-process "
            + "server. Each scenario starts a fresh `imock serve` child on loopback and drives it with imock's own client "
            + "code on one event-loop thread. With --compare, imock and the baselines (a Python asyncio mock under bench/, "
            + "nginx with fixed JSON where installed) run alternately and the medians and ratios follow. Scenarios: "
            + BenchScenarioName.allCases.map(\.rawValue).joined(separator: ", ")
            + " (default: all). Build with `swift build -c release` first; docs/BENCHMARKS.md.",
        positionals: "[SCENARIO…]",
        options: [
            CommandLineOption("--json", help: "One JSON object per line (per scenario run, then per comparison).") {
                $0.json = true
            },
            CommandLineOption("--compare", help: "Alternate imock and the baselines for --rounds rounds; print medians and ratios.") {
                $0.compare = true
            },
            integer("--rounds", "Rounds of --compare (at least 3).", in: 3...100, default: 3, \.rounds),
            integer("--devices", "Devices of login-storm and kick, and of the one-user variants.", in: 1...100_000,
                    default: 10_000, \.devices),
            integer("--fleet", "Logged-in devices fleet holds.", in: 1...100_000, default: 15_000, \.fleet),
            seconds("--hold", "How long fleet holds its devices, pinging.", default: "10", \.hold),
            integer("--in-flight", "Connects and logins under way at once.", in: 1...10_000, default: 200, \.inFlight),
            seconds("--seconds", "Measuring time of rest and messages, and of each transport and store-cost figure.", default: "3",
                    \.duration),
            integer("--connections", "Keep-alive connections of rest, transport and store-cost.", in: 1...10_000, default: 16,
                    \.connections),
            integer("--pairs", "Device pairs exchanging messages.", in: 1...10_000, default: 100, \.pairs),
            integer("--offline", "Offline messages drained at login (the queue holds at most 10000).", in: 1...10_000,
                    default: 10_000, \.offline),
            CommandLineOption("--dialect", "<name>", help: "A dialect of login-storm and messages (repeatable; default all: "
                + BenchConfiguration.dialectNames.joined(separator: ", ") + "; the Python baseline speaks imock-json only). "
                + "fleet and kick use the first one with Easemob's policies, else imock-json.") { options, text throws(UsageError) in
                guard BenchConfiguration.dialectNames.contains(text) else {
                    throw UsageError("option --dialect must be one of \(BenchConfiguration.dialectNames.joined(separator: ", ")), got '\(text)'")
                }
                options.dialects.append(text)
            },
            CommandLineOption("--no-tls", help: "Skip the TLS variant of login-storm.") { $0.tls = false },
            CommandLineOption("--imock", "<path>", help: "The imock executable whose serve is measured.", default: "this one") {
                options, text throws(UsageError) in
                options.imockExecutable = try OptionValue.nonEmpty(text, option: "--imock")
            },
            CommandLineOption(
                "--server-wrapper", "<command>",
                help: "Run imock serve under this command, split on spaces, e.g. 'valgrind --tool=callgrind' to profile it."
            ) { options, text throws(UsageError) in
                options.serverWrapper = try OptionValue.nonEmpty(text, option: "--server-wrapper")
            },
            CommandLineOption("--python-mock", "<path>", help: "The Python baseline.", default: "bench/python_mock.py") {
                options, text throws(UsageError) in
                options.pythonMock = try OptionValue.nonEmpty(text, option: "--python-mock")
            },
            CommandLineOption("--fixtures", "<dir>", help: "The fixture catalogue of catalogue.", default: "Fixtures") {
                options, text throws(UsageError) in
                options.fixtures = try OptionValue.nonEmpty(text, option: "--fixtures")
            },
        ])

    /// `imock bench --help`.
    static var usage: String { spec.help }

    /// Parses the arguments after `bench`. Throws a `UsageError` naming the bad option or scenario.
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchConfiguration {
        var (options, names) = try spec.parse(arguments, defaults: BenchConfiguration())
        for name in names {
            guard let scenario = BenchScenarioName(rawValue: name) else {
                throw UsageError(
                    "unknown scenario '\(name)'; one of \(BenchScenarioName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !options.scenarios.contains(scenario) { options.scenarios.append(scenario) }
        }
        if !options.compare { options.rounds = 1 }
        return options
    }

    private static func integer(
        _ name: String, _ help: String, in range: ClosedRange<Int>, default defaultValue: Int,
        _ keyPath: any WritableKeyPath<BenchConfiguration, Int> & Sendable
    ) -> CommandLineOption<BenchConfiguration> {
        CommandLineOption(name, "<n>", help: help, default: String(defaultValue)) { options, text throws(UsageError) in
            options[keyPath: keyPath] = try OptionValue.integer(text, option: name, in: range)
        }
    }

    private static func seconds(
        _ name: String, _ help: String, default defaultText: String,
        _ keyPath: any WritableKeyPath<BenchConfiguration, Duration> & Sendable
    ) -> CommandLineOption<BenchConfiguration> {
        CommandLineOption(name, "<s>", help: help, default: defaultText) { options, text throws(UsageError) in
            options[keyPath: keyPath] = try OptionValue.seconds(text, option: name)
        }
    }
}
