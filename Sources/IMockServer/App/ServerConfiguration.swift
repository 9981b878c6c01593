import IMockCommon
import IMockCore
import IMockNet

/// How a ``MockServer`` is set up: where it listens, its limits and timeouts, its clock, the
/// apps and users it starts with, where it keeps its state, and the seed of its randomness.
/// `imock serve` builds one from its command line (`Sources/imock/ServeOptions.swift`); tests,
/// the harness and the benchmarks build one in code.
public struct ServerConfiguration: Sendable, Equatable {
    /// The default listening port.
    public static let defaultPort: UInt16 = 5280

    public var host = "127.0.0.1"
    public var port = ServerConfiguration.defaultPort
    /// A PEM certificate (chain) and its private key: serve https and wss.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    public var logFormat = LogFormat.text
    /// The least severe events logged (`debug` adds every request and connection).
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
    /// A `/ws` connection with more output waiting (a client that does not read) is closed
    /// with 1008; its undelivered messages go back to the offline queue.
    public var maxWebSocketOutputBytes = ServerConfiguration.defaultMaxWebSocketOutputBytes
    /// The default time a `/ws` connection may stay silent before the server closes it.
    public static let defaultSessionIdleTimeout: Duration = .seconds(30)
    public var sessionIdleTimeout = ServerConfiguration.defaultSessionIdleTimeout
    /// The share of a token's life after which `token.willExpire` is sent.
    public var tokenWarningPercent = SessionEngineConfiguration().tokenWarningPercent
    /// The control API's bearer secret; nil makes the server generate one and log it at start-up.
    public var adminSecret: String?
    /// Answer control-API calls from non-loopback clients too.
    public var controlRemote = false
    /// Stop (as on SIGTERM) when the process that started it ends (`ParentWatch`): the
    /// process's concern, read by `imock serve`, not by the server.
    public var exitWithParent = false
    /// Follow the wall clock, or start frozen and move only when told.
    public var clockMode = Timeline.Mode.system
    /// Where a virtual clock starts (epoch ms); nil: the wall clock's now.
    public var clockStartMs: Int64?
    /// The apps to create, in order.
    public var apps: [InitialApp] = []
    /// A seed document (docs/SEED.md) of apps and users to load.
    public var seedPath: String?
    /// Apps recorded from the start (`--record`, docs/RECORD.md), as `org#app`.
    public var recordedApps: [String] = []
    /// Keep apps, users, tokens, offline queues, checkpoints and the clock in a SQLite store in
    /// this directory across restarts (docs/PERSISTENCE.md); nil: in memory.
    public var dataDirectory: String?
    /// The seed of every random choice of the run (ids, salts, keys, secrets, the faults'
    /// `probability`), so a run can be replayed exactly; nil: the system's secure generator, and
    /// a random fault seed, shown by `GET /_imock/faults`.
    public var randomSeed: UInt64?

    /// The app created when the configuration names neither apps nor a seed document.
    public static let defaultApp = InitialApp(key: "imock#demo", registrationMode: .authorized)

    /// An app to create at start-up: its key and registration mode.
    public struct InitialApp: Sendable, Equatable {
        public var key: String
        public var registrationMode: RegistrationMode
        public init(key: String, registrationMode: RegistrationMode) {
            self.key = key
            self.registrationMode = registrationMode
        }
    }

    /// An app to create is also in the seed document.
    public struct AppAlsoInSeed: Error, Sendable, Equatable, CustomStringConvertible {
        public var key: String
        public var description: String { "\(key) is also in the seed file" }
    }

    /// The defaults.
    public init() {}

    /// A generated admin secret (from the run's random source, so ``randomSeed`` repeats it).
    static func randomSecret(_ random: RandomSource) -> String {
        Base64URL.encode(random.bytes(18))
    }

    /// The run's random source: seeded by ``randomSeed`` (every id, salt, key and fault choice
    /// is then reproducible), else the system's secure generator.
    public func makeRandomSource() -> RandomSource {
        randomSeed.map { RandomSource(seed: $0) } ?? .secure
    }

    /// The apps and users to start with: the seed document's, then each of ``apps``; with
    /// neither, ``defaultApp``. Without `settings`, the directory draws from
    /// ``makeRandomSource()``. Throws ``AppAlsoInSeed`` for an app in both.
    public func makeDirectory(
        settings: DirectorySettings? = nil, nowMs: Int64, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> Directory {
        let settings = settings ?? DirectorySettings(random: makeRandomSource())
        var directory = Directory(settings: settings)
        if let seedPath {
            directory = try SeedDocument.parse(bytes: try Files.read(seedPath)).makeDirectory(settings: settings, nowMs: nowMs, progress: progress)
        }
        let apps = apps.isEmpty && seedPath == nil ? [ServerConfiguration.defaultApp] : apps
        for app in apps {
            var appSettings = AppSettings()
            appSettings.registrationMode = app.registrationMode
            let key = try AppKey(parsing: app.key)
            guard (try? directory.app(key)) == nil else { throw AppAlsoInSeed(key: app.key) }
            _ = try directory.createApp(key, settings: appSettings)
        }
        return directory
    }

    /// The HTTP server settings of this configuration (TLS is loaded separately).
    public func httpConfiguration(tls: TLSContext?) -> HTTPServerConfiguration {
        var limits = HTTPLimits()
        limits.maxHeaderBytes = maxHeaderBytes
        limits.maxBodyBytes = maxBodyBytes
        return HTTPServerConfiguration(
            limits: limits, headerTimeout: headerTimeout, bodyTimeout: bodyTimeout, idleTimeout: idleTimeout,
            maxConnections: maxConnections, maxWebSocketMessageBytes: maxWebSocketMessageBytes, tls: tls)
    }
}
