import IMockCommon
import IMockCore
import IMockNet
import IMockServer

/// The command line of `imock serve`: its options, each also read from an environment variable,
/// make a ``ServerConfiguration``.
enum ServeOptions {
    /// `imock serve --help`, written from ``spec``.
    static var usage: String { spec.help }

    /// Parses the arguments after `serve`, with every option also read from its environment
    /// variable (`IMOCK_PORT` …) when the flag is absent. Throws a `UsageError` naming the bad
    /// option.
    static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> ServerConfiguration {
        let configuration = try spec.parse(arguments, environment: environment, defaults: ServerConfiguration()).settings
        if (configuration.tlsCertificatePath == nil) != (configuration.tlsKeyPath == nil) {
            throw UsageError("--tls-cert and --tls-key must be given together")
        }
        return configuration
    }

    static func parseApp(_ text: String) throws(UsageError) -> ServerConfiguration.InitialApp {
        var key = Substring(text)
        var mode = RegistrationMode.authorized
        if let colon = text.lastIndex(of: ":") {
            let suffix = text[text.index(after: colon)...]
            guard let parsed = RegistrationMode(rawValue: String(suffix)) else {
                throw UsageError("option --app: registration mode must be open or authorized, got '\(suffix)'")
            }
            mode = parsed
            key = text[..<colon]
        }
        do {
            _ = try AppKey(parsing: String(key))
        } catch {
            throw UsageError("option --app: \(error)")
        }
        return ServerConfiguration.InitialApp(key: String(key), registrationMode: mode)
    }

    /// The declarations of `imock serve`: they parse the arguments and write `--help`.
    static let spec = CommandLineSpec<ServerConfiguration>(
        name: "serve",
        summary: "Runs the mock IM backend: REST, the session connections of every dialect and the control API on one port. "
            + "Every option can also come from the environment variable shown beside it; the flag wins.",
        options: [
            value("--host", "<host>", "Address to listen on; :: or 0.0.0.0 for all.", default: "127.0.0.1") { $0.host = $1 },
            value("--port", "<port>", "Port to listen on, 0 for any free port.", default: "5280") { options, text throws(UsageError) in
                options.port = UInt16(try OptionValue.integer(text, option: "--port", in: 0...65535))
            },
            value("--tls-cert", "<file>", "PEM certificate (chain): serve https and wss. Needs --tls-key.") {
                $0.tlsCertificatePath = $1
            },
            value("--tls-key", "<file>", "PEM private key for --tls-cert.") { $0.tlsKeyPath = $1 },
            value(
                "--app", "<org#app[:open]>",
                "Create an app (repeatable); ':open' allows tokenless registration. Without --app and --seed: imock#demo, authorized mode."
            ) { options, text throws(UsageError) in
                let app = try parseApp(text)
                guard !options.apps.contains(where: { $0.key == app.key }) else {
                    throw UsageError("option --app: \(app.key) is given twice")
                }
                options.apps.append(app)
            },
            value("--seed", "<file>", "Load apps and users from a seed JSON file (docs/SEED.md).") { $0.seedPath = $1 },
            value(
                "--record", "<org#app>",
                "Record the app's sessions from the start (repeatable): GET /_imock/record?app= returns the recording, "
                    + "imock record export turns it into a fixture (docs/RECORD.md)."
            ) { options, text throws(UsageError) in
                guard let key = try? AppKey(parsing: text) else { throw UsageError("option --record: '\(text)' is not an app key org#app") }
                guard !options.recordedApps.contains(key.description) else {
                    throw UsageError("option --record: \(key) is given twice")
                }
                options.recordedApps.append(key.description)
            },
            value(
                "--data", "<dir>",
                "Keep apps, users, tokens, offline queues, checkpoints and the clock in a SQLite store in this directory "
                    + "(created if missing); a restart loads it and --app/--seed then only apply to a new store. "
                    + "Default: in memory (docs/PERSISTENCE.md)."
            ) { options, text throws(UsageError) in
                options.dataDirectory = try OptionValue.nonEmpty(text, option: "--data")
            },
            value(
                "--seed-random", "<n>",
                "Seed every random choice of the run (0...2^64-1): ids, salts, keys, secrets and fault choices repeat from run to run."
            ) { options, text throws(UsageError) in
                guard let seed = UInt64(text) else {
                    throw UsageError("option --seed-random must be an integer in 0...18446744073709551615, got '\(text)'")
                }
                options.randomSeed = seed
            },
            value(
                "--admin-secret", "<secret>",
                "Bearer secret of the control API under /_imock/; without it a random one is logged at start-up."
            ) { options, text throws(UsageError) in
                options.adminSecret = try OptionValue.nonEmpty(text, option: "--admin-secret")
            },
            CommandLineOption("--control-remote", help: "Let non-loopback clients use the control API.",
                              environment: CommandLineSpec<ServerConfiguration>.environmentName(for: "--control-remote")) {
                $0.controlRemote = true
            },
            CommandLineOption(
                "--exit-with-parent",
                help: "Stop (as on SIGTERM) when the process that started imock ends, also when it was killed with SIGKILL.",
                environment: CommandLineSpec<ServerConfiguration>.environmentName(for: "--exit-with-parent")
            ) {
                $0.exitWithParent = true
            },
            value("--clock", "<system|virtual>", "Follow the wall clock, or stand still until the control API moves it.",
                  default: "system") { options, text throws(UsageError) in
                options.clockMode = try OptionValue.choice(text, option: "--clock", as: Timeline.Mode.self)
            },
            value(
                "--clock-start", "<epoch ms>",
                "Where a virtual clock starts (with --seed-random, a run is then reproducible to the millisecond).",
                default: "now"
            ) { options, text throws(UsageError) in
                options.clockStartMs = try OptionValue.integer64(text, option: "--clock-start", in: 0...Timeline.maximumMs)
            },
            value("--log-level", "<level>", "debug, info, warning or error; debug logs every request and connection.",
                  default: "info") { options, text throws(UsageError) in
                options.logLevel = try OptionValue.choice(text, option: "--log-level", as: Logger.Level.self)
            },
            value("--log-format", "<text|json>", "One line per event, as text or JSON.", default: "text") { options, text throws(UsageError) in
                options.logFormat = try OptionValue.choice(text, option: "--log-format", as: LogFormat.self)
            },
            integer("--max-header-bytes", "Largest request line + headers; more gets 431.", in: 1024...(1 << 24),
                    default: ServerConfiguration().maxHeaderBytes, \.maxHeaderBytes),
            integer("--max-body-bytes", "Largest request body; more gets 413.", in: 0...(1 << 30),
                    default: ServerConfiguration().maxBodyBytes, \.maxBodyBytes),
            seconds("--header-timeout", "Time to send a whole request head; then 408.", default: "10", \.headerTimeout),
            seconds("--body-timeout", "Time to send a request body; then 408.", default: "30", \.bodyTimeout),
            seconds("--idle-timeout", "Keep-alive time between requests.", default: "60", \.idleTimeout),
            integer("--max-connections", "Open connections at most; more get 503.", in: 1...1_000_000,
                    default: ServerConfiguration().maxConnections, \.maxConnections),
            integer("--max-ws-message-bytes", "Largest WebSocket message; more closes with 1009.", in: 125...(1 << 28),
                    default: ServerConfiguration().maxWebSocketMessageBytes, \.maxWebSocketMessageBytes),
            integer(
                "--max-ws-output-bytes",
                "Most output waiting for a session client that does not read; more closes it with 1008, undelivered messages stay queued.",
                in: 65_536...(1 << 32), default: ServerConfiguration().maxWebSocketOutputBytes, \.maxWebSocketOutputBytes),
            integer("--token-warning-percent", "Warn of a token's expiry when this share of its life has passed (1-99).",
                    in: 1...99, default: ServerConfiguration().tokenWarningPercent, \.tokenWarningPercent),
            seconds("--session-idle-timeout", "Close a session connection silent this long, with 1001.", default: "30",
                    \.sessionIdleTimeout),
        ])

    /// An option with a value, its environment variable named after the flag.
    private static func value(
        _ name: String, _ valueName: String, _ help: String, default defaultText: String? = nil,
        apply: @escaping @Sendable (inout ServerConfiguration, String) throws(UsageError) -> Void
    ) -> CommandLineOption<ServerConfiguration> {
        CommandLineOption(
            name, valueName, help: help, default: defaultText,
            environment: CommandLineSpec<ServerConfiguration>.environmentName(for: name), apply: apply)
    }

    private static func integer(
        _ name: String, _ help: String, in range: ClosedRange<Int>, default defaultValue: Int,
        _ keyPath: any WritableKeyPath<ServerConfiguration, Int> & Sendable
    ) -> CommandLineOption<ServerConfiguration> {
        value(name, "<n>", help, default: String(defaultValue)) { options, text throws(UsageError) in
            options[keyPath: keyPath] = try OptionValue.integer(text, option: name, in: range)
        }
    }

    private static func seconds(
        _ name: String, _ help: String, default defaultText: String,
        _ keyPath: any WritableKeyPath<ServerConfiguration, Duration> & Sendable
    ) -> CommandLineOption<ServerConfiguration> {
        value(name, "<seconds>", help, default: defaultText) { options, text throws(UsageError) in
            options[keyPath: keyPath] = try OptionValue.seconds(text, option: name)
        }
    }
}
