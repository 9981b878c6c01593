#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockStore

/// `imock serve`: the mock server until SIGTERM or SIGINT.
enum ServeCommand {
    /// The exit status after a commit to the `--data` store failed (EX_IOERR): the server
    /// stopped without answering what it could not store.
    static let storeFailureExitCode: Int32 = 74

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        CommandStart.run(
            "serve", arguments: arguments, help: ServeOptions.usage,
            parse: { () throws(UsageError) in try ServeOptions.parse(arguments, environment: environment) }, serve)
    }

    private static func serve(_ configuration: ServerConfiguration) -> Int32 {
        let logger = Logger(format: configuration.logFormat, minimumLevel: configuration.logLevel)
        // Thousands of sockets need more than the usual soft limit of 1024 descriptors.
        _ = cimock_raise_nofile_limit(1 << 20)
        // A store that reaches the file-size limit gets EFBIG (a failed commit, exit 74) instead
        // of the signal killing the process.
        _ = signal(SIGXFSZ, SIG_IGN)
        do {
            let tls = try configuration.tlsCertificatePath.map { certificate in
                try TLSContext(serverCertificatePath: certificate, privateKeyPath: configuration.tlsKeyPath ?? "")
            }
            let settings = DirectorySettings(random: configuration.makeRandomSource())
            let store: ServerStore?
            do {
                store = try configuration.dataDirectory.map { path throws(StoreError) in
                    try ServerStore.open(directory: path, settings: settings)
                }
            } catch {
                // A directory that cannot be used, a file that is not an imock store, a newer
                // schema: say which and leave the files alone.
                StandardError.write("imock serve: --data: \(error)")
                return UsageError.exitCode
            }
            var directory = Directory(settings: settings)
            // A store that holds a server's state replaces --seed and --app: no need to load them.
            if store?.restored == nil {
                do {
                    var reporter: ProgressReporter?
                    directory = try configuration.makeDirectory(settings: settings, nowMs: configuration.clockStartMs ?? SystemClock().nowMs) {
                        done, total in
                        if reporter == nil {
                            reporter = ProgressReporter(title: "loading the seed's users", total: total) { line in
                                logger.info("seed.progress", ["progress": line])
                            }
                        }
                        reporter?.report(done: done)
                    }
                } catch let clash as ServerConfiguration.AppAlsoInSeed {
                    StandardError.write("imock serve: option --app: \(clash)")
                    return UsageError.exitCode
                } catch {
                    // A bad seed file is bad usage: say what and where.
                    StandardError.write("imock serve: \(error)")
                    return UsageError.exitCode
                }
            }
            let loop = try EventLoop()
            let server = MockServer(loop: loop, configuration: configuration, directory: directory, tls: tls, logger: logger, store: store)
            var status: Int32 = 0
            server.onStoreFailure = { _ in
                status = ServeCommand.storeFailureExitCode
                loop.stop()
            }
            let signals = try TerminationSignals(loop: loop) { signal in
                logger.info("stopping", ["signal": String(signal)])
                server.shutdown()
                loop.stop()
            }
            if configuration.exitWithParent, !ParentWatch.start() {
                logger.warning("exit-with-parent.unavailable", ["reason": "the watching thread did not start"])
            }
            try server.start()
            loop.run()
            server.closeStore()
            withExtendedLifetime(signals) {}
            return status
        } catch {
            logger.error("startup.failed", ["error": "\(error)"])
            return 1
        }
    }
}
