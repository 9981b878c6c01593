import IMockCommon
import IMockCore

/// The command line of `imock token`.
struct TokenOptions: Sendable {
    /// Mint offline from this seed file.
    var seedPath: String?
    /// Ask this running server (`http://host:port`).
    var serverURL: String?
    /// The app; nil: the seed's only app (offline) or `imock#demo` (server).
    var app: AppKey?
    /// A user token for this user; nil: an app token.
    var user: String?
    /// Lifetime in seconds; nil: the app's default; 0: never expires.
    var ttlSeconds: Int64?
    /// `--server`: the app's client credentials (else read through the control API).
    var clientID: String?
    var clientSecret: String?
    /// `--server`: the control-API secret, to read the app's credentials.
    var adminSecret: String?
    /// Offline: the issue time (a virtual-clock server's time); nil: now.
    var nowMs: Int64?
    /// Print the whole answer as JSON instead of the bare token.
    var json = false

    /// Parses the arguments after `token`; exactly one of `--seed` and `--server`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> TokenOptions {
        let (options, _) = try spec.parse(arguments, environment: environment, defaults: TokenOptions())
        switch (options.seedPath, options.serverURL) {
        case (nil, nil): throw UsageError("give --seed <file> (offline) or --server <url> (ask a running server)")
        case (.some, .some): throw UsageError("give --seed or --server, not both")
        default: break
        }
        if options.serverURL != nil, options.nowMs != nil { throw UsageError("--now is for --seed (the server uses its own clock)") }
        if options.seedPath != nil, options.clientID != nil || options.clientSecret != nil || options.adminSecret != nil {
            throw UsageError("--client-id, --client-secret and --admin-secret are for --server")
        }
        if (options.clientID == nil) != (options.clientSecret == nil) {
            throw UsageError("--client-id and --client-secret go together")
        }
        return options
    }

    /// `imock token`'s options, declared once for parsing, `--help` and the environment.
    static let spec = CommandLineSpec<TokenOptions>(
        name: "token",
        summary: """
            Prints an app token, or a user token with --user: minted offline for a seed file (the server started \
            with that seed accepts it; the app needs signingKey, and clientId for app tokens), or asked from a \
            running server over its REST API. The bare token goes to standard output, so TOKEN=$(imock token …) works.
            """,
        options: [
            CommandLineOption("--seed", "<file>", help: "Mint offline for this seed file (as given to imock serve --seed).") {
                options, value throws(UsageError) in options.seedPath = try OptionValue.nonEmpty(value, option: "--seed")
            },
            CommandLineOption(
                "--server", "<url>", help: "Ask the running server at this URL (http://host:port).", environment: "IMOCK_SERVER"
            ) { options, value throws(UsageError) in options.serverURL = try OptionValue.nonEmpty(value, option: "--server") },
            CommandLineOption(
                "--app", "<org#app>", help: "The app (default: the seed's only app; with --server, imock#demo)."
            ) { options, value throws(UsageError) in
                do { options.app = try AppKey(parsing: value) } catch { throw UsageError("option --app: \(error)") }
            },
            CommandLineOption("--user", "<name>", help: "Mint a user token for this existing user (default: an app token).") {
                options, value throws(UsageError) in options.user = try OptionValue.nonEmpty(value, option: "--user")
            },
            CommandLineOption(
                "--ttl", "<seconds>", help: "Lifetime in seconds; 0 never expires.", default: "the app's default token TTL"
            ) { options, value throws(UsageError) in
                options.ttlSeconds = try OptionValue.integer64(value, option: "--ttl", in: 0...ValueLimits.maximumDurationMs / 1000)
            },
            CommandLineOption("--client-id", "<id>", help: "With --server: the app's client_id.") { options, value in
                options.clientID = value
            },
            CommandLineOption("--client-secret", "<secret>", help: "With --server: the app's client_secret.") {
                options, value in options.clientSecret = value
            },
            CommandLineOption(
                "--admin-secret", "<secret>",
                help: "With --server and no client credentials: read the app's credentials through the control API.",
                environment: "IMOCK_ADMIN_SECRET"
            ) { options, value in options.adminSecret = value },
            CommandLineOption(
                "--now", "<epoch-ms>", help: "With --seed: the issue time (e.g. a virtual-clock server's time).",
                default: "the system clock"
            ) { options, value throws(UsageError) in
                options.nowMs = try OptionValue.integer64(value, option: "--now", in: 0...ValueLimits.maximumEpochMs)
            },
            CommandLineOption("--json", help: "Print the REST API's answer shape instead of the bare token.") { options in
                options.json = true
            },
        ])
}
