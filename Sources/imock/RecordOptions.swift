import IMockCommon
import IMockCore
import IMockHarness

/// The command line of `imock record export` (docs/RECORD.md § Export).
struct RecordOptions: Sendable {
    /// What to keep and check.
    var export = RecordingExportOptions()
    /// Read the recording from this file; nil: standard input (unless `--server`).
    var input: String?
    /// Fetch the recording from this running server instead.
    var serverURL: String?
    var adminSecret: String?
    /// The app whose recording is fetched, or that a file's recording must be of.
    var app: AppKey?

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> RecordOptions {
        let (options, positionals) = try spec.parse(arguments, environment: environment, defaults: RecordOptions())
        guard positionals == ["export"] else {
            throw UsageError(positionals.isEmpty ? "missing subcommand: export" : "unknown subcommand '\(positionals.joined(separator: " "))' (imock record export)")
        }
        if options.serverURL != nil, options.input != nil { throw UsageError("--server and --input are two sources: give one") }
        if options.serverURL != nil, options.app == nil { throw UsageError("--server needs --app: whose recording to fetch") }
        if let from = options.export.fromMs, let to = options.export.toMs, to < from { throw UsageError("--to is before --from") }
        return options
    }

    private static func duration(_ text: String, _ option: String) throws(UsageError) -> Int64 {
        guard let ms = DurationText.parse(text) else { throw UsageError("\(option): '\(text)' is not a duration (\"90s\", \"2m\", \"1500ms\")") }
        return ms
    }

    static let spec = CommandLineSpec<RecordOptions>(
        name: "record",
        summary: """
            export: turns a recording (GET /_imock/record?app=…, docs/RECORD.md) read from standard input, --input or \
            --server into a fixture on standard output: the seed, the devices, the steps, the recorded waits as advance \
            steps, and what the server sent as sent checks. A bad or cut recording exits 65.
            """,
        positionals: "export",
        options: [
            CommandLineOption("--input", "<file>", help: "Read the recording from this file (default: standard input).") {
                options, value throws(UsageError) in options.input = try OptionValue.nonEmpty(value, option: "--input")
            },
            CommandLineOption("--server", "<url>", help: "Fetch the recording from this running server (with --app).", environment: "IMOCK_SERVER") {
                options, value throws(UsageError) in options.serverURL = try OptionValue.nonEmpty(value, option: "--server")
            },
            CommandLineOption("--admin-secret", "<secret>", help: "The control API's secret for --server.", environment: "IMOCK_ADMIN_SECRET") {
                options, value in options.adminSecret = value
            },
            CommandLineOption("--app", "<org#app>", help: "The recorded app: fetched with --server; a file's recording must be of it.") {
                options, value throws(UsageError) in
                guard let key = try? AppKey(parsing: value) else { throw UsageError("--app: '\(value)' is not an app key org#app") }
                options.app = key
            },
            CommandLineOption("--from", "<duration>", help: "Keep what happened from this long after the recording's start.") {
                options, value throws(UsageError) in options.export.fromMs = try duration(value, "--from")
            },
            CommandLineOption("--to", "<duration>", help: "Keep what happened until this long after the recording's start.") {
                options, value throws(UsageError) in options.export.toMs = try duration(value, "--to")
            },
            CommandLineOption("--devices", "<a,b>", help: "Keep only these devices: export names (ios, android-2), resources or users.") {
                options, value throws(UsageError) in
                let names = value.split(separator: ",").map(String.init).filter { !$0.isEmpty }
                guard !names.isEmpty else { throw UsageError("--devices: give at least one device, resource or user") }
                options.export.devices = names
            },
            CommandLineOption("--no-callbacks", help: "Do not check the callbacks an imock run --record holds, only what the server sent.") {
                $0.export.callbacks = false
            },
            CommandLineOption("--drop-pings", help: "Leave the devices' pings out: the clock moves in one step between two actions.") {
                $0.export.dropPings = true
            },
            CommandLineOption("--order", "<device|global>", help: "global: check the order across devices too; device: each device's own.", default: "global") {
                options, value throws(UsageError) in
                guard let order = RecordingExportOptions.Order(rawValue: value) else { throw UsageError("--order: '\(value)' is not device or global") }
                options.export.order = order
            },
            CommandLineOption("--rule", "<id>", help: "The CONFORMANCE.md rule the fixture names.", default: "S4") {
                options, value throws(UsageError) in
                guard RuleCatalogue.rule(value) != nil else { throw UsageError("--rule: unknown rule id '\(value)'") }
                options.export.rule = value
            },
            CommandLineOption("--name", "<text>", help: "The fixture's name (default: the rule, app and size).") {
                options, value throws(UsageError) in options.export.name = try OptionValue.nonEmpty(value, option: "--name")
            },
        ])
}
