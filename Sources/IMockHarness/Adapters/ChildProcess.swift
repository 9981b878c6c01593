#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation

/// An adapter process started with `posix_spawnp`, its stdin and stdout connected to us (stderr
/// inherited), no other descriptor of ours. Not Foundation's `Process`, whose `run()` over-reads
/// `/proc/self/fd` entries on Linux and crashes now and then (swift-corelibs-foundation#5472).
final class ChildProcess: Sendable {
    let pid: pid_t
    /// The write end of the child's stdin.
    let input: Int32
    /// The read end of the child's stdout.
    let output: Int32

    private init(pid: pid_t, input: Int32, output: Int32) {
        self.pid = pid
        self.input = input
        self.output = output
    }

    /// Starts `argv` (the program looked up on `PATH`).
    static func spawn(_ argv: [String]) throws(ScenarioFailure) -> ChildProcess {
        // Socket pairs, created close-on-exec in one call: no child another thread starts
        // meanwhile inherits them (dup2 onto 0 and 1 clears the flag for this child).
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, flags, 0, &toChild) == 0 else {
            throw ScenarioFailure("socketpair: \(String(cString: strerror(errno)))")
        }
        guard socketpair(AF_UNIX, flags, 0, &fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            throw ScenarioFailure("socketpair: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        // Every other descriptor of ours is closed in the child, close-on-exec or not.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let arguments = argv.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, argv[0], &actions, nil, arguments, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw ScenarioFailure("cannot start \(argv.joined(separator: " ")): \(String(cString: strerror(status)))")
        }
        return ChildProcess(pid: pid, input: toChild[1], output: fromChild[0])
    }

    /// Writes `text` to the child's stdin (false when the child closed it).
    @discardableResult
    func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// Closes the child's stdin (it should end then).
    func closeInput() { close(input) }

    /// Whether the child still runs (reaps it once it ended).
    var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Ends the child (SIGKILL) and reaps it.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}
