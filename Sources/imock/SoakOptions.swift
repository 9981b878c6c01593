import IMockCommon
import IMockHarness

/// The command line of `imock soak`.
struct SoakOptions: Sendable {
    /// The load's length in seconds; nil until `--minutes` or `--seconds` gives it.
    var seconds: Int?
    var seed: UInt64 = 1
    var devices = SoakConfiguration.defaultDevices
    /// An external server (`imock serve --clock virtual`), with its admin secret.
    var serverURL: String?
    var adminSecret: String?
    var serverPID: Int32?
    var maximumMemoryGrowthMiB = SoakConfiguration.defaultMaximumMemoryGrowthBytes >> 20
    var json = false
    /// Kill the server child with SIGKILL this many times and restart it on its `--data`.
    var crashRestarts = 0

    /// The longest soak: a day.
    static let maximumSeconds = 24 * 3600

    /// Parses the arguments after `soak`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> SoakOptions {
        var duration: (minutes: Bool, seconds: Bool) = (false, false)
        for argument in arguments {
            if argument == "--minutes" || argument.hasPrefix("--minutes=") { duration.minutes = true }
            if argument == "--seconds" || argument.hasPrefix("--seconds=") { duration.seconds = true }
        }
        if duration.minutes, duration.seconds { throw UsageError("give --minutes or --seconds, not both") }
        let (options, _) = try spec.parse(arguments, environment: environment, defaults: SoakOptions())
        if options.serverURL != nil, options.adminSecret == nil {
            throw UsageError("--server needs --admin-secret (or IMOCK_ADMIN_SECRET): the soak steers the server through its control API")
        }
        if options.serverURL == nil, options.serverPID != nil { throw UsageError("--server-pid is for --server") }
        if options.serverURL != nil, options.crashRestarts > 0 {
            throw UsageError("--crash-restart runs a server of its own: it cannot be given with --server")
        }
        return options
    }

    /// The configuration these options ask for.
    var configuration: SoakConfiguration {
        let target: SoakConfiguration.Target =
            if let serverURL { .external(url: serverURL, adminSecret: adminSecret ?? "", pid: serverPID) }
            else if crashRestarts > 0 { .crashRestart(executable: ProcessEnvironment.executablePath, crashes: crashRestarts) }
            else { .inProcess }
        return SoakConfiguration(
            duration: .seconds(seconds ?? 60), seed: seed, devices: devices, target: target,
            maximumMemoryGrowthBytes: maximumMemoryGrowthMiB << 20)
    }

    /// This executable, for the server child of `--crash-restart`.

    /// `imock soak`'s options, declared once for parsing, `--help` and the environment.
    static let spec = CommandLineSpec<SoakOptions>(
        name: "soak",
        summary: """
            Runs a bounded soak on loopback (docs/SOAK.md): logins across every login policy, kicks by policy, REST and \
            the control API, token renewals and expiries on the virtual clock, messages with and without acks, offline \
            messages and network faults, against an in-process server or an external `imock serve --clock virtual`. \
            Every message is counted; the report gives lost, duplicated and out-of-order messages, kicks without their \
            close, the server's memory over time and its open files. Exit status 0 when nothing was lost or duplicated \
            and memory stayed within the bound, 1 otherwise.
            """,
        options: [
            CommandLineOption("--minutes", "<n>", help: "Run the load for n minutes (1-1440).", default: "1") {
                options, value throws(UsageError) in
                options.seconds = try OptionValue.integer(value, option: "--minutes", in: 1...(maximumSeconds / 60)) * 60
            },
            CommandLineOption("--seconds", "<n>", help: "Run the load for n seconds instead (1-86400), for short runs.") {
                options, value throws(UsageError) in
                options.seconds = try OptionValue.integer(value, option: "--seconds", in: 1...maximumSeconds)
            },
            CommandLineOption(
                "--seed", "<n>", help: "Seeds every choice of the load (and the in-process server's faults): a run repeats.",
                default: "1"
            ) { options, value throws(UsageError) in
                guard let seed = UInt64(value) else { throw UsageError("option --seed must be an integer in 0...\(UInt64.max), got '\(value)'") }
                options.seed = seed
            },
            CommandLineOption(
                "--devices", "<n>", help: "Device slots, spread over eight apps (one per login policy) and their users (16-10000).",
                default: String(SoakConfiguration.defaultDevices)
            ) { options, value throws(UsageError) in
                options.devices = try OptionValue.integer(value, option: "--devices", in: SoakConfiguration.minimumDevices...10_000)
            },
            CommandLineOption(
                "--server", "<url>", help: "Soak this external server (http://host:port), started with --clock virtual.",
                environment: "IMOCK_SERVER"
            ) { options, value throws(UsageError) in options.serverURL = try OptionValue.nonEmpty(value, option: "--server") },
            CommandLineOption(
                "--admin-secret", "<secret>", help: "With --server: its control-API secret.", environment: "IMOCK_ADMIN_SECRET"
            ) { options, value in options.adminSecret = value },
            CommandLineOption(
                "--server-pid", "<pid>", help: "With --server: the process to sample.", default: "the local process listening on its port"
            ) { options, value throws(UsageError) in
                options.serverPID = Int32(try OptionValue.integer(value, option: "--server-pid", in: 1...Int(Int32.max)))
            },
            CommandLineOption(
                "--crash-restart", "<n>",
                help: "Soak an `imock serve --data` child instead, killed with SIGKILL n times during the load (0-10; 0: none) and restarted on its data.",
                default: "0: the in-process server, never killed"
            ) { options, value throws(UsageError) in
                options.crashRestarts = try OptionValue.integer(value, option: "--crash-restart", in: 0...10)
            },
            CommandLineOption(
                "--max-memory-growth-mib", "<n>", help: "Fail when resident memory grows more than n MiB after the warm-up.",
                default: String(SoakConfiguration.defaultMaximumMemoryGrowthBytes >> 20)
            ) { options, value throws(UsageError) in
                options.maximumMemoryGrowthMiB = try OptionValue.integer(value, option: "--max-memory-growth-mib", in: 1...1_048_576)
            },
            CommandLineOption("--json", help: "Print the report as JSON instead of text.") { options in options.json = true },
        ])
}
