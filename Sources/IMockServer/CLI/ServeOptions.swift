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
    /// `--data DIR`: keep apps, users, tokens, offline queues, checkpoints and the clock in a
    /// SQLite store in this directory across restarts (docs/PERSISTENCE.md); nil: in memory.
    public var dataDirectory: String?
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

    /// `imock serve --help`, written from ``spec``.
    public static var usage: String { spec.help }

    /// Parses the arguments after `serve`, with every option also read from its environment
    /// variable (`IMOCK_PORT` …) when the flag is absent. Throws a `UsageError` naming the bad
    /// option.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> ServeOptions {
        let options = try spec.parse(arguments, environment: environment, defaults: ServeOptions()).settings
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

    static func parseApp(_ text: String) throws(UsageError) -> AppOption {
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
    public func makeDirectory(
        settings: DirectorySettings? = nil, nowMs: Int64, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> Directory {
        let settings = settings ?? DirectorySettings(random: makeRandomSource())
        var directory = Directory(settings: settings)
        if let seedPath {
            directory = try SeedDocument.parse(bytes: try Files.read(seedPath)).makeDirectory(settings: settings, nowMs: nowMs, progress: progress)
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
