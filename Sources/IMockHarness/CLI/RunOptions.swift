import IMockCommon

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
    /// `--server` and `--admin-secret` as given, combined into ``RunSettings/target`` after parsing.
    var serverURL: String?
    var adminSecret: String?

    /// Defaults: `Fixtures`, in process, one at a time.
    public init() {}

    /// The `--help` text, written from ``spec``.
    public static var usage: String {
        spec.help + """


            EXIT STATUS: 0 all passed (expected failures included), 1 a fixture failed or an expected
            failure passed, 64 bad usage, 65 an invalid fixture (file: JSON path: reason).
            """
    }

    /// Parses the arguments after `run` (and the `IMOCK_*` variables of `environment`).
    public static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> RunOptions {
        var (options, paths) = try spec.parse(arguments, environment: environment, defaults: RunOptions())
        options.paths = paths.isEmpty ? ["Fixtures"] : paths
        if let server = options.serverURL {
            guard let secret = options.adminSecret, !secret.isEmpty else {
                throw UsageError("--server needs --admin-secret (or $IMOCK_ADMIN_SECRET)")
            }
            options.settings.target = .external(url: server, adminSecret: secret)
        }
        if let name = options.settings.adapterOverride, name != "reference", options.settings.adapters[name] == nil {
            throw UsageError("--all-devices \(name): no --adapter \(name)=<command>")
        }
        return options
    }
}
