import IMockClient
import IMockCommon
import IMockCore
import IMockHarness

/// The command line of `imock run`: its options make a ``RunConfiguration``.
struct RunOptions: Sendable {
    /// What the options set directly.
    var configuration = RunConfiguration()
    /// `--server` and `--admin-secret` as given, combined into ``RunSettings/target`` after parsing.
    var serverURL: String?
    var adminSecret: String?

    /// The `--help` text, written from ``spec``.
    static var usage: String {
        spec.help + """


            EXIT STATUS: 0 all passed (expected failures included), 1 a fixture failed or an expected
            failure passed, 64 bad usage, 65 an invalid fixture (file: JSON path: reason), 69 the --server
            cannot be used (not reachable, admin secret refused, clock not virtual; checked before any fixture).
            """
    }

    /// Parses the arguments after `run` (and the `IMOCK_*` variables of `environment`).
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> RunConfiguration {
        let (options, paths) = try spec.parse(arguments, environment: environment, defaults: RunOptions())
        var configuration = options.configuration
        configuration.paths = paths.isEmpty ? ["Fixtures"] : paths
        if let server = options.serverURL {
            guard let secret = options.adminSecret, !secret.isEmpty else {
                throw UsageError("--server needs --admin-secret (or $IMOCK_ADMIN_SECRET)")
            }
            configuration.settings.target = .external(url: server, adminSecret: secret)
        }
        if let name = configuration.settings.adapterOverride, name != "reference", configuration.settings.adapters[name] == nil {
            throw UsageError("--all-devices \(name): no --adapter \(name)=<command>")
        }
        return configuration
    }

    /// `--adapter <name>=<command>`: the adapter's name and its command line (`imock explore` too).
    static func adapter(_ value: String) throws(UsageError) -> (name: String, command: [String]) {
        guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
            throw UsageError("option --adapter must be <name>=<command>, got '\(value)'")
        }
        let command = value[value.index(after: equals)...].split(separator: " ").map(String.init)
        guard !command.isEmpty else { throw UsageError("option --adapter \(value[..<equals]): empty command") }
        return (String(value[..<equals]), command)
    }

    /// `imock run`'s options, declared once for parsing, `--help` and the environment.
    static let spec = CommandLineSpec<RunOptions>(
        name: "run",
        summary: """
            Replays scenario fixtures (JSON files, or directories searched for them; default Fixtures) against an \
            in-process server on a virtual clock, or an external one, and checks every expectation. Format and \
            examples: docs/FIXTURES.md.
            """,
        positionals: "[PATHS…]",
        options: [
            CommandLineOption(
                "--server", "<url>",
                help: """
                    Run against an external 'imock serve --clock virtual' (http://host:port); each fixture gets apps \
                    of its own, so --jobs may run them in parallel.
                    """, environment: "IMOCK_SERVER"
            ) { options, value throws(UsageError) in options.serverURL = try OptionValue.nonEmpty(value, option: "--server") },
            CommandLineOption(
                "--admin-secret", "<secret>", help: "The external server's control-API secret.",
                environment: "IMOCK_ADMIN_SECRET"
            ) { options, value in options.adminSecret = value },
            CommandLineOption(
                "--app-key", "<org#app>",
                help: """
                    Run each fixture's first app as this existing app of the server (its key and credentials, the \
                    fixture's settings and users; put back as it was after each fixture, fixtures one at a time).
                    """
            ) { options, value throws(UsageError) in
                do {
                    _ = try AppKey(parsing: value)
                } catch {
                    throw UsageError("option --app-key must be org#app: \(error)")
                }
                options.configuration.settings.appKey = value
            },
            CommandLineOption("--jobs", "<n>", help: "Fixtures run at once.", default: "1", environment: "IMOCK_JOBS") {
                options, value throws(UsageError) in options.configuration.jobs = try OptionValue.integer(value, option: "--jobs", in: 1...64)
            },
            CommandLineOption(
                "--filter", "<text>",
                help: """
                    Only fixtures with this rule id (E10), rule family (E), or text in the file name or title \
                    (repeatable: any matches).
                    """
            ) { options, value in options.configuration.filters.append(value) },
            CommandLineOption(
                "--seed-random", "<n>", help: "Seed the server's randomness and the devices' reconnect jitter.",
                environment: "IMOCK_SEED_RANDOM"
            ) { options, value throws(UsageError) in
                guard let seed = UInt64(value) else { throw UsageError("option --seed-random must be an integer ≥ 0, got '\(value)'") }
                options.configuration.settings.seedRandom = seed
            },
            CommandLineOption(
                "--adapter", "<name>=<command>",
                help: "An external adapter (JSON lines on stdin/stdout) for devices whose \"adapter\" is <name> (repeatable)."
            ) { options, value throws(UsageError) in
                let (name, command) = try adapter(value)
                options.configuration.settings.adapters[name] = command
            },
            CommandLineOption(
                "--all-devices", "<name>",
                help: "Drive every device through adapter <name> (skipping fixtures it cannot run)."
            ) { options, value in options.configuration.settings.adapterOverride = value },
            CommandLineOption(
                "--step-timeout", "<seconds>", help: "Real-time bound of one step's waits; a hang fails naming the step.",
                default: "10"
            ) { options, value throws(UsageError) in
                options.configuration.settings.stepTimeout = try OptionValue.seconds(value, option: "--step-timeout")
            },
            CommandLineOption(
                "--hello-timeout", "<seconds>",
                help: "How long a silent adapter is waited for at its start (once a run; one that ends or answers wrongly fails at once).",
                default: "30"
            ) { options, value throws(UsageError) in
                options.configuration.settings.helloTimeout = try OptionValue.seconds(value, option: "--hello-timeout")
            },
            CommandLineOption(
                "--real-time-cap", "<seconds>", help: "Longest real-time wait for a real-time adapter's callbacks.",
                default: "5"
            ) { options, value throws(UsageError) in
                options.configuration.settings.realTimeCap = try OptionValue.seconds(value, option: "--real-time-cap")
            },
            CommandLineOption(
                "--token-warning-percent", "<n>", help: "The server's token warning share (in process: set).", default: "80"
            ) { options, value throws(UsageError) in
                options.configuration.settings.tokenWarningPercent = try OptionValue.integer(value, option: "--token-warning-percent", in: 1...99)
            },
            CommandLineOption(
                "--transport", "<imock-json|msync|openim>",
                help: """
                    The wire dialect of the built-in reference clients: imock-json, msync (docs/PROTOCOL-MSYNC.md) or \
                    openim, which connects devices with an OpenIM platform through the OpenIM gateway (the others keep \
                    the imock protocol).
                    """,
                default: "imock-json", environment: "IMOCK_TRANSPORT"
            ) { options, value throws(UsageError) in
                guard let transport = ClientTransport(rawValue: value) else {
                    let names = ClientTransport.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError("option --transport must be one of \(names), got '\(value)'")
                }
                options.configuration.settings.transport = transport
            },
            CommandLineOption("--junit", "<file>", help: "Write a JUnit XML report.") { options, value in options.configuration.junitPath = value },
            CommandLineOption("--json", "<file>", help: "Write the JSON report (format in docs/FIXTURES.md).") {
                options, value in options.configuration.jsonPath = value
            },
            CommandLineOption("--html", "<file>", help: "Write a self-contained HTML report with a sequence diagram per scenario.") {
                options, value in options.configuration.htmlPath = value
            },
            CommandLineOption("--coverage", help: "Print rule id → fixtures and fail when a rule has none (runs nothing).") {
                options in options.configuration.coverage = true
            },
            CommandLineOption("--verbose", help: "Print the timeline of every scenario, not only failing ones.") {
                options in options.configuration.verbose = true
            },
            CommandLineOption(
                "--record", "<dir>",
                help: "Record each fixture's first app and write DIR/<fixture>.recording.json, for imock record export (docs/RECORD.md)."
            ) { options, value throws(UsageError) in
                options.configuration.recordDirectory = try OptionValue.nonEmpty(value, option: "--record")
            },
        ])
}
