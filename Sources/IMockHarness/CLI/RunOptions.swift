import IMockServer

/// The command line of `imock run`.
public struct RunOptions: Sendable {
    /// Fixture files and directories.
    public var paths: [String] = []
    /// How each fixture runs.
    public var settings = RunSettings()
    /// Fixtures at once.
    public var jobs = 1
    /// `--filter` values (any matches).
    public var filters: [String] = []
    /// Report files.
    public var junitPath: String?
    public var jsonPath: String?
    public var htmlPath: String?
    /// `--coverage`: print rule id → fixtures, run nothing.
    public var coverage = false
    /// `--verbose`: timelines of passing scenarios too.
    public var verbose = false

    /// Defaults: `Fixtures`, in process, one at a time.
    public init() {}

    /// The `--help` text.
    public static let usage = """
        USAGE: imock run [options] [PATHS…]

        Replays scenario fixtures (JSON files, or directories searched for them; default Fixtures)
        against an in-process server on a virtual clock, or an external one, and checks every
        expectation. Format and examples: docs/FIXTURES.md.

        OPTIONS:
          --server <url>              Run against an external 'imock serve --clock virtual' (http://host:port);
                                      each fixture gets apps of its own, so --jobs may run them in parallel.
          --admin-secret <secret>     The external server's control-API secret (default $IMOCK_ADMIN_SECRET).
          --jobs <n>                  Fixtures run at once (default 1).
          --filter <text>             Only fixtures with this rule id (E10), rule family (E), or text in the
                                      file name or title (repeatable: any matches).
          --seed-random <n>           Seed the server's fault randomness and the devices' reconnect jitter.
          --adapter <name>=<command>  An external adapter (JSON lines on stdin/stdout) for devices whose
                                      "adapter" is <name> (repeatable).
          --all-devices <name>        Drive every device through adapter <name> (skipping fixtures it
                                      cannot run).
          --step-timeout <seconds>    Real-time bound of one step's waits; a hang fails naming the step (default 10).
          --real-time-cap <seconds>   Longest real-time wait for a real-time adapter's callbacks (default 5).
          --token-warning-percent <n> The server's token warning share (in process: set; default 80).
          --junit <file>              Write a JUnit XML report.
          --json <file>               Write the JSON report (format in docs/FIXTURES.md).
          --html <file>               Write a self-contained HTML report with a sequence diagram per scenario.
          --coverage                  Print rule id → fixtures and fail when a rule has none (runs nothing).
          --verbose                   Print the timeline of every scenario, not only failing ones.
          -h, --help                  Show this help.

        EXIT STATUS: 0 all passed (expected failures included), 1 a fixture failed or an expected
        failure passed, 64 bad usage, 65 an invalid fixture (file: JSON path: reason).
        """

    /// Parses the arguments after `run`.
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> RunOptions {
        var options = RunOptions()
        var server: String?
        var secret = environment["IMOCK_ADMIN_SECRET"]
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw UsageError("option \(name) needs a value")
            }
            return arguments[index]
        }
        func integer(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            let text = try value(name)
            guard let number = Int(text), range.contains(number) else {
                throw UsageError("option \(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
            }
            return number
        }
        func seconds(_ name: String) throws(UsageError) -> Duration {
            let text = try value(name)
            guard let number = Double(text), number > 0, number <= 3600 else {
                throw UsageError("option \(name) must be a number of seconds in (0, 3600], got '\(text)'")
            }
            return .milliseconds(Int64(number * 1000))
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--server": server = try value(argument)
            case "--admin-secret": secret = try value(argument)
            case "--jobs": options.jobs = try integer(argument, 1...64)
            case "--filter": options.filters.append(try value(argument))
            case "--seed-random":
                let text = try value(argument)
                guard let seed = UInt64(text) else { throw UsageError("option --seed-random must be an integer ≥ 0, got '\(text)'") }
                options.settings.seedRandom = seed
            case "--adapter":
                let text = try value(argument)
                guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                    throw UsageError("option --adapter must be <name>=<command>, got '\(text)'")
                }
                let command = text[text.index(after: equals)...].split(separator: " ").map(String.init)
                guard !command.isEmpty else { throw UsageError("option --adapter \(text[..<equals]): empty command") }
                options.settings.adapters[String(text[..<equals])] = command
            case "--all-devices": options.settings.adapterOverride = try value(argument)
            case "--step-timeout": options.settings.stepTimeout = try seconds(argument)
            case "--real-time-cap": options.settings.realTimeCap = try seconds(argument)
            case "--token-warning-percent": options.settings.tokenWarningPercent = try integer(argument, 1...99)
            case "--junit": options.junitPath = try value(argument)
            case "--json": options.jsonPath = try value(argument)
            case "--html": options.htmlPath = try value(argument)
            case "--coverage": options.coverage = true
            case "--verbose": options.verbose = true
            default:
                guard !argument.hasPrefix("-") else { throw UsageError("unknown option '\(argument)'") }
                options.paths.append(argument)
            }
            index += 1
        }
        if let server {
            guard let secret, !secret.isEmpty else { throw UsageError("--server needs --admin-secret (or $IMOCK_ADMIN_SECRET)") }
            options.settings.target = .external(url: server, adminSecret: secret)
        }
        if let name = options.settings.adapterOverride, name != "reference", options.settings.adapters[name] == nil {
            throw UsageError("--all-devices \(name): no --adapter \(name)=<command>")
        }
        if options.paths.isEmpty { options.paths = ["Fixtures"] }
        return options
    }
}
