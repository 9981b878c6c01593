import IMockClient
import IMockCommon
import IMockHarness

/// The command line of `imock explore`.
struct ExploreOptions: Sendable {
    var configuration = ExploreConfiguration()
    var output = ExploreRun.Output()
    var transportGiven = false
    var profileGiven = false

    /// The `--help` text, written from ``spec``.
    static var usage: String {
        spec.help + """


            EXIT STATUS: 0 no property broken, 1 findings (each written as a fixture to --out, its seed printed),
            64 bad usage. Properties and how to keep a finding: docs/EXPLORE.md.
            """
    }

    /// Parses the arguments after `explore`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> ExploreOptions {
        let (options, positionals) = try spec.parse(arguments, environment: environment, defaults: ExploreOptions())
        guard positionals.isEmpty else { throw UsageError("unexpected argument '\(positionals[0])'") }
        var result = options
        // OpenIM's gateway serves OpenIM platforms: its programs use the openim profile and policy.
        if result.configuration.settings.transport == .openIM && !result.profileGiven { result.configuration.profile = .openim }
        if result.configuration.settings.transport == .openIM && result.configuration.profile != .openim {
            throw UsageError("--transport openim needs --profile openim (its devices have OpenIM platforms)")
        }
        return result
    }

    /// `--unknown-file`: ids one a line, `#` starts a comment.
    static func unknownIDs(file path: String) throws(UsageError) -> [String] {
        let bytes: [UInt8]
        do throws(FileError) { bytes = try Files.read(path) } catch { throw UsageError("option --unknown-file: \(path): \(error.reason)") }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let text = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let id = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).first.map(String.init)
            return id
        }
    }

    /// A property id or a rule id of CONFORMANCE.md.
    static func knownName(_ value: String) throws(UsageError) -> String {
        guard ExploreProperty.all.contains(where: { $0.id == value || $0.rules.contains(value) }) else {
            let ids = ExploreProperty.all.map(\.id).joined(separator: ", ")
            throw UsageError("option --unknown: '\(value)' is neither a property (\(ids)) nor a rule one checks")
        }
        return value
    }

    static let spec = CommandLineSpec<ExploreOptions>(
        name: "explore",
        summary: """
            Generates random programs (logins, logouts, messages, REST actions, kicks with any code, token expiry and \
            renewal, network faults, clock moves) against a client, checks the documents' rules on each run, and shrinks \
            every failure to a small fixture. docs/EXPLORE.md.
            """,
        options: [
            CommandLineOption("--seed", "<n>", help: "The first program's seed (program k has seed n + k).", default: "1") {
                options, value throws(UsageError) in
                guard let seed = UInt64(value) else { throw UsageError("option --seed must be an integer ≥ 0, got '\(value)'") }
                options.configuration.seed = seed
            },
            CommandLineOption("--runs", "<k>", help: "How many programs.", default: "100") { options, value throws(UsageError) in
                options.configuration.runs = try OptionValue.integer(value, option: "--runs", in: 1...1_000_000)
            },
            CommandLineOption("--steps", "<m>", help: "About how many operations per program.", default: "12") {
                options, value throws(UsageError) in options.configuration.steps = try OptionValue.integer(value, option: "--steps", in: 1...500)
            },
            CommandLineOption("--profile", "<easemob|openim|zim>", help: "The devices' callback vocabulary.", default: "easemob") {
                options, value throws(UsageError) in
                options.configuration.profile = try OptionValue.choice(value, option: "--profile", as: SDKProfile.self)
                options.profileGiven = true
            },
            CommandLineOption(
                "--transport", "<imock-json|msync|openim>", help: "The wire dialect of the reference clients.", default: "imock-json",
                environment: "IMOCK_TRANSPORT"
            ) { options, value throws(UsageError) in
                options.configuration.settings.transport = try OptionValue.choice(value, option: "--transport", as: ClientTransport.self)
            },
            CommandLineOption(
                "--adapter", "<name>=<command>", help: "Drive every device through this external adapter (JSON lines, docs/FIXTURES.md)."
            ) { options, value throws(UsageError) in
                let (name, command) = try RunOptions.adapter(value)
                options.configuration.settings.adapters = [name: command]
                options.configuration.settings.adapterOverride = name
                // An SDK's own back-off runs in real time, which the closing two virtual minutes do not wait
                // for; and two devices' reports reach the harness in the order their sockets are read.
                options.configuration.unknown.formUnion(["dropped-device-reconnects", "device-limit"])
            },
            CommandLineOption(
                "--real-time-quiet", "<seconds>",
                help: "How long the end of each program listens to a real-time adapter's SDK (its own reconnect timers).",
                default: "0.2"
            ) { options, value throws(UsageError) in
                options.configuration.settings.realTimeQuiet = try OptionValue.seconds(value, option: "--real-time-quiet")
            },
            CommandLineOption(
                "--unknown", "<property|rule>",
                help: "A property (or every property of a rule) known not to hold for this client: not checked (repeatable)."
            ) { options, value throws(UsageError) in options.configuration.unknown.insert(try knownName(value)) },
            CommandLineOption("--unknown-file", "<file>", help: "--unknown for each id in the file (one a line, # comments).") {
                options, value throws(UsageError) in
                for id in try unknownIDs(file: value) { options.configuration.unknown.insert(try knownName(id)) }
            },
            CommandLineOption("--shrink-budget", "<n>", help: "At most this many runs to shrink one finding.", default: "400") {
                options, value throws(UsageError) in
                options.configuration.shrinkBudget = try OptionValue.integer(value, option: "--shrink-budget", in: 0...100_000)
            },
            CommandLineOption("--out", "<dir>", help: "Where each finding's fixture is written.", default: "explore-findings") {
                options, value throws(UsageError) in options.output.directory = try OptionValue.nonEmpty(value, option: "--out")
            },
            CommandLineOption("--json", "<file>", help: "Write the JSON report (imock run's, with an explore member).") {
                options, value in options.output.jsonPath = value
            },
            CommandLineOption("--junit", "<file>", help: "Write a JUnit XML report: a case per property, failing with its finding.") {
                options, value in options.output.junitPath = value
            },
            CommandLineOption("--html", "<file>", help: "Write an HTML report: each finding's fixture run as a sequence diagram.") {
                options, value in options.output.htmlPath = value
            },
            CommandLineOption("--verbose", help: "Print a line per program, not only per finding.") { options in options.output.verbose = true },
        ])
}
