#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization

/// SIGTERM, SIGINT and SIGHUP sent to `imock exec` (a cancelled CI job) go to its command, which
/// then ends like any command: exec stops the server and exits with 128+N. Before the command
/// runs, they stop the server and end exec at once — the server is never left behind.
enum ExecSignals {
    /// The pids the handler reads (only atomics are safe in a signal handler).
    fileprivate static let serverPID = Atomic<Int32>(0)
    fileprivate static let commandPID = Atomic<Int32>(0)

    /// Installs the handler for the server child `pid`.
    static func forward(server pid: pid_t) {
        serverPID.store(pid, ordering: .sequentiallyConsistent)
        for signal in [SIGTERM, SIGINT, SIGHUP] { _ = Glibc.signal(signal, execSignalHandler) }
    }

    /// From now on signals go to the command `pid`.
    static func command(_ pid: pid_t) {
        commandPID.store(pid, ordering: .sequentiallyConsistent)
    }
}

private func execSignalHandler(_ signal: Int32) {
    let command = ExecSignals.commandPID.load(ordering: .sequentiallyConsistent)
    if command > 0 {
        kill(command, signal)
        return
    }
    let server = ExecSignals.serverPID.load(ordering: .sequentiallyConsistent)
    if server > 0 { kill(server, SIGTERM) }
    _exit(128 + signal)
}
