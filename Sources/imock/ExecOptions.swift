import IMockCommon
import IMockServer

/// The command line of `imock exec [serve options] -- COMMAND [ARGS…]`: the options of
/// `imock serve` (checked the same way), a `--`, then the command to run against the server.
struct ExecOptions: Sendable, Equatable {
    /// The arguments for the `imock serve` child: the given serve options, with `--port 0` (a
    /// port the system picks) and a generated `--admin-secret` unless they were chosen.
    var serveArguments: [String]
    /// The command and its arguments.
    var command: [String]
    /// The admin secret the server will take.
    var adminSecret: String
    /// The server's configuration as parsed (host, TLS, apps).
    var configuration: ServerConfiguration

    /// `imock exec --help`.
    static var usage: String {
        """
        USAGE: imock exec [serve options] -- COMMAND [ARGS…]

        Starts an imock server on a port the system picks, runs COMMAND with the server's addresses,
        admin secret and first app's credentials in its environment, stops the server and exits with
        COMMAND's status (127 when it is not found, 126 when it cannot run, 128+N when signal N ended it).
        The serve options are those of 'imock serve --help'; without --port the port is chosen by the
        system, without --admin-secret (or $IMOCK_ADMIN_SECRET) a secret is generated. SIGTERM, SIGINT
        and SIGHUP are passed to COMMAND; the server is stopped whatever ends it.

        ENVIRONMENT OF COMMAND:
          IMOCK_SERVER         http://HOST:PORT (https with --tls-cert): REST and control API
          IMOCK_WS_URL         ws://HOST:PORT/ws: the imock session protocol
          IMOCK_MSYNC_URL      ws://HOST:PORT/websocket: msync (the Easemob SDKs)
          IMOCK_ADMIN_SECRET   the control API's bearer secret
          IMOCK_APP_KEYS       every app key, space-separated
          IMOCK_APP_KEY        the first --app (else the first app), and its
          IMOCK_CLIENT_ID, IMOCK_CLIENT_SECRET   client credentials
          IMOCK_ORG, IMOCK_APP the two parts of IMOCK_APP_KEY

          -h, --help           Show this help (before the --).
        """
    }

    /// Parses the arguments after `exec`; `environment` is read as `imock serve` reads it.
    static func parse(_ arguments: [String], environment: [String: String], secret: () -> String) throws(UsageError) -> ExecOptions {
        guard let separator = arguments.firstIndex(of: "--") else {
            throw UsageError("missing '--' before the command (imock exec [serve options] -- COMMAND [ARGS…])")
        }
        let command = Array(arguments[(separator + 1)...])
        guard let program = command.first, !program.isEmpty else { throw UsageError("missing the command after '--'") }
        var serve = Array(arguments[..<separator])
        let configuration = try ServeOptions.parse(serve, environment: environment)
        if !Self.given("--port", in: serve, environment: environment) { serve += ["--port", "0"] }
        let adminSecret = configuration.adminSecret ?? secret()
        if configuration.adminSecret == nil { serve += ["--admin-secret", adminSecret] }
        return ExecOptions(serveArguments: serve, command: command, adminSecret: adminSecret, configuration: configuration)
    }

    /// Whether serve option `flag` was given as an argument or through its environment variable.
    private static func given(_ flag: String, in arguments: [String], environment: [String: String]) -> Bool {
        arguments.contains { $0 == flag || $0.hasPrefix(flag + "=") }
            || environment[CommandLineSpec<ServerConfiguration>.environmentName(for: flag)] != nil
    }
}
