#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import IMockCore
import IMockNet

/// The `imock` command line: `imock serve`, `--help`, `--version`.
public enum IMockCommand {
    public static let usage = """
        USAGE: imock <command> [options]

        imock is a mock IM backend (Easemob / Agora Chat, OpenIM, ZIM style) and conformance harness.

        COMMANDS:
          serve      Run the mock server (REST, WebSocket, control API).
          run        Replay scenario fixtures and check the callback order the vendor documents require.
          bench      Measure HTTP and WebSocket rates of an in-process server against a TCP baseline.

        Run 'imock <command> --help' for a command's options.
          -h, --help     Show this help.
          --version      Print the version.
        """

    /// Runs the command line and returns the process exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            printError("imock: missing command\n\n\(usage)")
            return UsageError.exitCode
        }
        switch command {
        case "-h", "--help", "help":
            print(usage)
            return 0
        case "--version":
            print("imock \(IMockVersion.current)")
            return 0
        case "serve":
            let rest = Array(arguments.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                print(ServeOptions.usage)
                return 0
            }
            do {
                return serve(try ServeOptions.parse(rest, environment: ProcessEnvironment.variables()))
            } catch {
                printError("imock serve: \(error)\n\n\(ServeOptions.usage)")
                return UsageError.exitCode
            }
        case "bench":
            return BenchCommand.run(Array(arguments.dropFirst()))
        default:
            printError("imock: unknown command '\(command)'\n\n\(usage)")
            return UsageError.exitCode
        }
    }

    private static func serve(_ options: ServeOptions) -> Int32 {
        let logger = Logger(format: options.logFormat, minimumLevel: options.logLevel)
        // Thousands of sockets need more than the usual soft limit of 1024 descriptors.
        _ = cimock_raise_nofile_limit(1 << 20)
        do {
            let tls = try options.tlsCertificatePath.map { certificate in
                try TLSContext(serverCertificatePath: certificate, privateKeyPath: options.tlsKeyPath ?? "")
            }
            let directory: Directory
            do {
                directory = try options.makeDirectory(nowMs: SystemClock().nowMs)
            } catch {
                // A bad seed file or a clash with --app is bad usage: say what and where.
                printError("imock serve: \(error)")
                return UsageError.exitCode
            }
            let loop = try EventLoop()
            let server = MockServer(loop: loop, options: options, directory: directory, tls: tls, logger: logger)
            let signals = try TerminationSignals(loop: loop) { signal in
                logger.info("stopping", ["signal": String(signal)])
                server.shutdown()
                loop.stop()
            }
            try server.start()
            loop.run()
            withExtendedLifetime(signals) {}
            return 0
        } catch {
            logger.error("startup.failed", ["error": "\(error)"])
            return 1
        }
    }

    private static func printError(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}
