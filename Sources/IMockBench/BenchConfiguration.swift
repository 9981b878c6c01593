import IMockCommon

/// What `imock bench` runs: the scenarios, their sizes and durations, the baselines, the
/// executables. `imock bench` builds one from its command line (`Sources/imock/BenchOptions.swift`).
public struct BenchConfiguration: Sendable, Equatable {
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
    public static var tiny: BenchConfiguration {
        var options = BenchConfiguration()
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

    /// The dialects `login-storm` and `messages` can run with, by name.
    public static var dialectNames: [String] { BenchWires.all.map { $0.name } }
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
