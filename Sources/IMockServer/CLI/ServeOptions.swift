import IMockCommon
import IMockCore
import IMockNet

/// The settings of `imock serve`, parsed from its command line.
public struct ServeOptions: Sendable, Equatable {
    /// The default listening port.
    public static let defaultPort: UInt16 = 5280

    public var host = "127.0.0.1"
    public var port = ServeOptions.defaultPort
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    public var logFormat = LogFormat.text
    /// `--log-level`: the least severe events logged (`debug` adds every request and connection).
    public var logLevel = Logger.Level.info
    public var maxHeaderBytes = HTTPLimits().maxHeaderBytes
    public var maxBodyBytes = HTTPLimits().maxBodyBytes
    public var headerTimeout = HTTPServerConfiguration.defaultHeaderTimeout
    public var bodyTimeout = HTTPServerConfiguration.defaultBodyTimeout
    public var idleTimeout = HTTPServerConfiguration.defaultIdleTimeout
    public var maxConnections = HTTPServerConfiguration.defaultMaxConnections
    public var maxWebSocketMessageBytes = HTTPServerConfiguration.defaultMaxWebSocketMessageBytes
    /// The default cap of what a `/ws` connection may have waiting to be written (16 MiB).
    public static let defaultMaxWebSocketOutputBytes = 16 * 1024 * 1024
    /// `--max-ws-output-bytes`: a `/ws` connection with more output waiting (a client that does
    /// not read) is closed with 1008; its undelivered messages go back to the offline queue.
    public var maxWebSocketOutputBytes = ServeOptions.defaultMaxWebSocketOutputBytes
    /// The default time a `/ws` connection may stay silent before the server closes it.
    public static let defaultSessionIdleTimeout: Duration = .seconds(30)
    public var sessionIdleTimeout = ServeOptions.defaultSessionIdleTimeout
    /// `--token-warning-percent`: share of a token's life after which `token.willExpire` is sent.
    public var tokenWarningPercent = SessionEngineConfiguration().tokenWarningPercent
    /// The control API's bearer secret: `--admin-secret`, else `IMOCK_ADMIN_SECRET`; nil makes
    /// the server generate one and log it at start-up.
    public var adminSecret: String?
    /// `--control-remote`: answer control-API calls from non-loopback clients too.
    public var controlRemote = false
    /// `--clock`: follow the wall clock, or start frozen and move only when told.
    public var clockMode = Timeline.Mode.system
    /// `--clock-start`: where a virtual clock starts (epoch ms); nil: the wall clock's now.
    public var clockStartMs: Int64?
    /// Apps from `--app org#app[:open]`, in order.
    public var apps: [AppOption] = []
    /// `--seed FILE`.
    public var seedPath: String?
    /// `--seed-random N`: the seed of every random choice a fault makes (its `probability`),
    /// so a run can be replayed exactly; nil: a random seed, shown by `GET /_imock/faults`.
    public var faultSeed: UInt64?

    /// The app created when neither `--app` nor `--seed` names one.
    public static let defaultApp = AppOption(key: "imock#demo", registrationMode: .authorized)

    /// One `--app` flag: an app key and its registration mode.
    public struct AppOption: Sendable, Equatable {
        public var key: String
        public var registrationMode: RegistrationMode
        public init(key: String, registrationMode: RegistrationMode) {
            self.key = key
            self.registrationMode = registrationMode
        }
    }

    public init() {}

    public static let usage = """
        USAGE: imock serve [options]

        Runs the mock IM backend: REST, WebSocket and control API on one port.

        OPTIONS:
          --host <host>                  Address to listen on (default 127.0.0.1; use :: or 0.0.0.0 for all).
          --port <port>                  Port to listen on, 0 for any free port (default 5280).
          --tls-cert <file>              PEM certificate (chain): serve https and wss. Needs --tls-key.
          --tls-key <file>               PEM private key for --tls-cert.
          --app <org#app[:open]>         Create an app (repeatable); ':open' allows tokenless registration.
                                         Without --app and --seed: imock#demo, authorized mode.
          --seed <file>                  Load apps and users from a seed JSON file (docs/SEED.md).
          --seed-random <n>              Seed the random choices of faults (0...2^64-1) to replay a run.
          --admin-secret <secret>        Bearer secret of the control API under /_imock/ (default:
                                         $IMOCK_ADMIN_SECRET, else random and logged at start-up).
          --control-remote               Let non-loopback clients use the control API.
          --clock <system|virtual>       Follow the wall clock, or stand still until the control API
                                         moves it (default system).
          --log-level <level>            debug, info, warning or error (default info; debug logs every
                                         request and /ws connection).
          --log-format <text|json>       One line per event, as text or JSON (default text).
          --max-header-bytes <n>         Largest request line + headers; more gets 431 (default 16384).
          --max-body-bytes <n>           Largest request body; more gets 413 (default 1048576).
          --header-timeout <seconds>     Time to send a whole request head; then 408 (default 10).
          --body-timeout <seconds>       Time to send a request body; then 408 (default 30).
          --idle-timeout <seconds>       Keep-alive time between requests (default 60).
          --max-connections <n>          Open connections at most; more get 503 (default 10000).
          --max-ws-message-bytes <n>     Largest WebSocket message; more closes with 1009 (default 1048576).
          --max-ws-output-bytes <n>      Most output waiting for a /ws client that does not read; more
                                         closes it with 1008, undelivered messages stay queued
                                         (default 16777216).
          --token-warning-percent <n>    Send token.willExpire when n % of a token's life has passed
                                         (1-99, default 80).
          --session-idle-timeout <s>     Close a /ws connection silent this long, with 1001 (default 30).
          -h, --help                     Show this help.
        """

    /// Parses the arguments after `serve`. Throws a `UsageError` naming the bad option.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> ServeOptions {
        var options = ServeOptions()
        if let secret = environment["IMOCK_ADMIN_SECRET"], !secret.isEmpty {
            options.adminSecret = secret
        }
        var scanner = ArgumentScanner(arguments)
        while let option = try scanner.nextOption() {
            switch option.name {
            case "--host": options.host = try scanner.value(for: option)
            case "--port": options.port = UInt16(try scanner.integer(for: option, in: 0...65535))
            case "--app":
                let app = try parseApp(try scanner.value(for: option))
                guard !options.apps.contains(where: { $0.key == app.key }) else {
                    throw UsageError("option --app: \(app.key) is given twice")
                }
                options.apps.append(app)
            case "--seed": options.seedPath = try scanner.value(for: option)
            case "--seed-random":
                let text = try scanner.value(for: option)
                guard let seed = UInt64(text) else {
                    throw UsageError("option --seed-random must be an integer in 0...18446744073709551615, got '\(text)'")
                }
                options.faultSeed = seed
            case "--tls-cert": options.tlsCertificatePath = try scanner.value(for: option)
            case "--tls-key": options.tlsKeyPath = try scanner.value(for: option)
            case "--admin-secret":
                let secret = try scanner.value(for: option)
                guard !secret.isEmpty else { throw UsageError("option --admin-secret must not be empty") }
                options.adminSecret = secret
            case "--control-remote":
                guard option.inlineValue == nil else { throw UsageError("option --control-remote takes no value") }
                options.controlRemote = true
            case "--clock":
                let text = try scanner.value(for: option)
                guard let mode = Timeline.Mode(rawValue: text) else {
                    throw UsageError("option --clock must be system or virtual, got '\(text)'")
                }
                options.clockMode = mode
            case "--log-level":
                let text = try scanner.value(for: option)
                guard let level = Logger.Level(rawValue: text) else {
                    throw UsageError("option --log-level must be debug, info, warning or error, got '\(text)'")
                }
                options.logLevel = level
            case "--log-format":
                let text = try scanner.value(for: option)
                guard let format = LogFormat(rawValue: text) else {
                    throw UsageError("option --log-format must be text or json, got '\(text)'")
                }
                options.logFormat = format
            case "--max-header-bytes": options.maxHeaderBytes = try scanner.integer(for: option, in: 1024...(1 << 24))
            case "--max-body-bytes": options.maxBodyBytes = try scanner.integer(for: option, in: 0...(1 << 30))
            case "--header-timeout": options.headerTimeout = try scanner.seconds(for: option)
            case "--body-timeout": options.bodyTimeout = try scanner.seconds(for: option)
            case "--idle-timeout": options.idleTimeout = try scanner.seconds(for: option)
            case "--max-connections": options.maxConnections = try scanner.integer(for: option, in: 1...1_000_000)
            case "--token-warning-percent": options.tokenWarningPercent = try scanner.integer(for: option, in: 1...99)
            case "--session-idle-timeout": options.sessionIdleTimeout = try scanner.seconds(for: option)
            case "--max-ws-message-bytes":
                options.maxWebSocketMessageBytes = try scanner.integer(for: option, in: 125...(1 << 28))
            case "--max-ws-output-bytes":
                options.maxWebSocketOutputBytes = try scanner.integer(for: option, in: 65_536...(1 << 32))
            default:
                throw UsageError("unknown option '\(option.name)'")
            }
        }
        if (options.tlsCertificatePath == nil) != (options.tlsKeyPath == nil) {
            throw UsageError("--tls-cert and --tls-key must be given together")
        }
        return options
    }

    /// A generated admin secret (from the run's random source, so `--seed-random` repeats it).
    static func randomSecret(_ random: RandomSource) -> String {
        Base64URL.encode(random.bytes(18))
    }

    /// The run's random source: seeded by `--seed-random` (every id, salt, key and fault choice
    /// is then reproducible), else the system's secure generator.
    public func makeRandomSource() -> RandomSource {
        faultSeed.map { RandomSource(seed: $0) } ?? .secure
    }

    private static func parseApp(_ text: String) throws(UsageError) -> AppOption {
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
        return AppOption(key: String(key), registrationMode: mode)
    }

    /// The apps and users to start with: the seed file's, then each `--app`; with neither, the
    /// default app `imock#demo`. Without `settings`, the directory draws from ``makeRandomSource()``.
    public func makeDirectory(settings: DirectorySettings? = nil, nowMs: Int64) throws -> Directory {
        let settings = settings ?? DirectorySettings(random: makeRandomSource())
        var directory = Directory(settings: settings)
        if let seedPath {
            directory = try SeedDocument.parse(bytes: try readFile(seedPath)).makeDirectory(settings: settings, nowMs: nowMs)
        }
        let apps = apps.isEmpty && seedPath == nil ? [ServeOptions.defaultApp] : apps
        for app in apps {
            var appSettings = AppSettings()
            appSettings.registrationMode = app.registrationMode
            let key = try AppKey(parsing: app.key)
            guard (try? directory.app(key)) == nil else {
                throw UsageError("option --app: \(app.key) is also in the seed file")
            }
            _ = try directory.createApp(key, settings: appSettings)
        }
        return directory
    }

    /// The HTTP server settings these options describe (TLS is loaded separately).
    public func httpConfiguration(tls: TLSContext?) -> HTTPServerConfiguration {
        var limits = HTTPLimits()
        limits.maxHeaderBytes = maxHeaderBytes
        limits.maxBodyBytes = maxBodyBytes
        return HTTPServerConfiguration(
            limits: limits, headerTimeout: headerTimeout, bodyTimeout: bodyTimeout, idleTimeout: idleTimeout,
            maxConnections: maxConnections, maxWebSocketMessageBytes: maxWebSocketMessageBytes, tls: tls)
    }
}
