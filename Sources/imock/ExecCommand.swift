#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockCommon
import IMockCore
import IMockHarness
import IMockNet

/// `imock exec [serve options] -- COMMAND [ARGS…]`, as Firebase's `emulators:exec`: an
/// `imock serve` child on a port the system picks for as long as COMMAND runs, its addresses,
/// admin secret and credentials in COMMAND's environment (``ExecOptions/usage``).
enum ExecCommand {
    /// Exit status when the server cannot be started (EX_UNAVAILABLE).
    static let serverUnavailableExitCode: Int32 = 69
    /// A shell's status for a command that is not found / cannot be run.
    static let notFoundExitCode: Int32 = 127
    static let notExecutableExitCode: Int32 = 126

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let options: ExecOptions
        let before = arguments.prefix { $0 != "--" }
        if before.contains("--help") || before.contains("-h") {
            print(ExecOptions.usage)
            return 0
        }
        do throws(UsageError) {
            options = try ExecOptions.parse(arguments, environment: environment) {
                String(RandomSource.secure.next(), radix: 36) + String(RandomSource.secure.next(), radix: 36)
            }
        } catch {
            StandardError.write("imock exec: \(error)\n\n\(ExecOptions.usage)")
            return UsageError.exitCode
        }
        let server: ServeChild
        switch ServeChild.start(options.serveArguments) {
        case .success(let child): server = child
        case .failure(let failure):
            StandardError.write("imock exec: the server did not start: \(failure.message)")
            return failure.exitStatus == UsageError.exitCode ? UsageError.exitCode : serverUnavailableExitCode
        }
        defer { server.stop() }
        ExecSignals.forward(server: server.process.pid)
        let variables: [(String, String)]
        switch ExecEnvironment.variables(options: options, port: server.port) {
        case .success(let found): variables = found
        case .failure(let failure):
            StandardError.write("imock exec: \(failure.message)")
            return serverUnavailableExitCode
        }
        for (name, value) in variables { setenv(name, value, 1) }
        return runCommand(options.command)
    }

    /// Runs `command` with this process's standard streams and environment; its exit status the
    /// way a shell reports it.
    private static func runCommand(_ command: [String]) -> Int32 {
        let child: SpawnedProcess
        do {
            child = try SpawnedProcess.spawn(command[0], Array(command.dropFirst()), stdin: .inherit, stdout: .inherit, stderr: .inherit)
            ExecSignals.command(child.pid)
        } catch {
            let missing = "\(error)".hasSuffix(String(cString: strerror(ENOENT)))
            StandardError.write("imock exec: \(command[0]): \(missing ? "command not found" : "\(error)")")
            return missing ? notFoundExitCode : notExecutableExitCode
        }
        switch child.wait() {
        case .exited(let status): return status
        case .signalled(let signal): return 128 + signal
        }
    }
}

/// A failure to start or read the server, and the status the server's child ended with.
struct ExecFailure: Error {
    var message: String
    var exitStatus: Int32?
}
