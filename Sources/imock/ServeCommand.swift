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
        if arguments.contains("--help") || arguments.contains("-h") {
            print(ServeOptions.usage)
            return 0
        }
        let options: ServeOptions
        do {
            options = try ServeOptions.parse(arguments, environment: environment)
        } catch {
            StandardError.write("imock serve: \(error)\n\n\(ServeOptions.usage)")
            return UsageError.exitCode
        }
        return serve(options)
    }

    private static func serve(_ options: ServeOptions) -> Int32 {
        let logger = Logger(format: options.logFormat, minimumLevel: options.logLevel)
        // Thousands of sockets need more than the usual soft limit of 1024 descriptors.
        _ = cimock_raise_nofile_limit(1 << 20)
        // A store that reaches the file-size limit gets EFBIG (a failed commit, exit 74) instead
        // of the signal killing the process.
        _ = signal(SIGXFSZ, SIG_IGN)
        do {
            let tls = try options.tlsCertificatePath.map { certificate in
                try TLSContext(serverCertificatePath: certificate, privateKeyPath: options.tlsKeyPath ?? "")
            }
            let directory: Directory
            do {
                directory = try options.makeDirectory(nowMs: options.clockStartMs ?? SystemClock().nowMs)
            } catch {
                // A bad seed file or a clash with --app is bad usage: say what and where.
                StandardError.write("imock serve: \(error)")
                return UsageError.exitCode
            }
            let store: ServerStore?
            do {
                store = try options.dataDirectory.map { path throws(StoreError) in
                    try ServerStore.open(directory: path, settings: directory.settings)
                }
            } catch {
                // A directory that cannot be used, a file that is not an imock store, a newer
                // schema: say which and leave the files alone.
                StandardError.write("imock serve: --data: \(error)")
                return UsageError.exitCode
            }
            let loop = try EventLoop()
            let server = MockServer(loop: loop, options: options, directory: directory, tls: tls, logger: logger, store: store)
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
