import IMockCommon

/// The settings of `imock bench`, parsed from its command line.
public struct BenchOptions: Sendable, Equatable {
    /// The scenarios to run, in the order given; empty means every one.
    public var scenarios: [BenchScenarioName] = []
    /// Print one JSON object per line instead of the table.
    public var json = false
    /// Run imock and the baselines alternately, `rounds` times, then print medians and ratios.
    public var compare = false
    /// Rounds of `--compare`.
    public var rounds = 3
    /// Devices of `login-storm`, `kick` and the one-user variants.
    public var devices = 10_000
    /// Devices `fleet` holds.
    public var fleet = 15_000
    /// How long `fleet` holds them.
    public var hold: Duration = .seconds(10)
    /// Logins (and connects) under way at once.
    public var inFlight = 200
    /// Measuring time of `rest` and `messages` (and of each `transport` and `store-cost` figure).
    public var duration: Duration = .seconds(3)
    /// Keep-alive connections of `rest` (and `transport`).
    public var connections = 16
    /// Pairs of `messages`.
    public var pairs = 100
    /// The offline queue `messages` drains at login.
    public var offline = 10_000
    /// The dialects of `login-storm` and `messages` (empty: every one the load side speaks).
    public var dialects: [String] = []
    /// Whether `login-storm` also runs over TLS.
    public var tls = true
    /// The `imock` executable whose `serve` is measured (default: this one).
    public var imockExecutable: String?
    /// A command wrapping `imock serve`, split on spaces (e.g. `valgrind --tool=callgrind`).
    public var serverWrapper: String?
    /// `bench/python_mock.py` (default: looked up from the working directory and the executable).
    public var pythonMock: String?
    /// The fixture catalogue of `catalogue`.
    public var fixtures = "Fixtures"

    public init() {}

    /// Options for a quick check: every size tiny, every phase short.
    public static var tiny: BenchOptions {
        var options = BenchOptions()
        options.devices = 12
        options.fleet = 12
        options.hold = .milliseconds(300)
        options.inFlight = 4
        options.duration = .milliseconds(200)
        options.connections = 2
        options.pairs = 2
        options.offline = 20
        options.rounds = 1
        return options
    }

    /// The declarations of `imock bench`: they parse the arguments and write `--help`.
    public static let spec = CommandLineSpec<BenchOptions>(
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
                + BenchWires.all.map { $0.name }.joined(separator: ", ") + "; the Python baseline speaks imock-json only). "
                + "fleet and kick use the first one with Easemob's policies, else imock-json.") { options, text throws(UsageError) in
                guard BenchWires.named(text) != nil else {
                    throw UsageError("option --dialect must be one of \(BenchWires.all.map { $0.name }.joined(separator: ", ")), got '\(text)'")
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
    public static var usage: String { spec.help }

    /// Parses the arguments after `bench`. Throws a `UsageError` naming the bad option or scenario.
    public static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var (options, names) = try spec.parse(arguments, defaults: BenchOptions())
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
        _ keyPath: any WritableKeyPath<BenchOptions, Int> & Sendable
    ) -> CommandLineOption<BenchOptions> {
        CommandLineOption(name, "<n>", help: help, default: String(defaultValue)) { options, text throws(UsageError) in
            options[keyPath: keyPath] = try OptionValue.integer(text, option: name, in: range)
        }
    }

    private static func seconds(
        _ name: String, _ help: String, default defaultText: String,
        _ keyPath: any WritableKeyPath<BenchOptions, Duration> & Sendable
    ) -> CommandLineOption<BenchOptions> {
        CommandLineOption(name, "<s>", help: help, default: defaultText) { options, text throws(UsageError) in
            options[keyPath: keyPath] = try OptionValue.seconds(text, option: name)
        }
    }
}

/// The scenarios of `imock bench`, in the order they run.
public enum BenchScenarioName: String, Sendable, CaseIterable {
    case rest
    case loginStorm = "login-storm"
    case fleet
    case kick
    case messages
    case catalogue
    case transport
    case storeCost = "store-cost"
}
