#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization

/// A child process started with `posix_spawnp`. Not Foundation's `Process`: on Linux its `run()`
/// over-reads a `dirent` while scanning `/proc/self/fd` and crashes now and then when the test
/// process has many descriptors open (swift-corelibs-foundation#5472). Like `Process`, the child
/// gets no descriptor of ours but its three standard streams: a socket or pipe end it kept open
/// would hide a close from another test. It starts with no signal blocked and SIGTERM, SIGINT,
/// SIGPIPE and SIGQUIT at their default actions, whatever the spawning thread had (a blocked or
/// ignored SIGTERM would make it unstoppable).
public final class SpawnedProcess: Sendable {
    /// What a standard stream of the child is connected to.
    public enum Stream: Sendable {
        /// A pipe to this process.
        case pipe
        /// `/dev/null`.
        case null
        /// This process's own stream.
        case inherit
        /// A file, created or truncated, that the child writes (for stdout and stderr).
        case file(String)
        /// Whatever the child's stdout is (for stderr: both in one log).
        case stdout
    }

    /// How the child ended.
    public enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    public let pid: pid_t
    /// The write end of the child's stdin, when piped.
    public let stdin: Int32?
    /// The read end of the child's stdout, when piped.
    public let stdout: Int32?
    /// The read end of the child's stderr, when piped.
    public let stderr: Int32?
    private let ending = Mutex<Ending?>(nil)

    private init(pid: pid_t, stdin: Int32?, stdout: Int32?, stderr: Int32?) {
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
    }

    /// A failed start.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `program` (a path, or a name looked up on `PATH`) with `arguments`.
    public static func spawn(
        _ program: String, _ arguments: [String], stdin: Stream = .null, stdout: Stream = .pipe, stderr: Stream = .pipe
    ) throws -> SpawnedProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var ours: [Int32?] = [nil, nil, nil]
        var theirs: [Int32] = []
        for (target, stream) in [stdin, stdout, stderr].enumerated() {
            switch stream {
            case .inherit:
                continue
            case .null:
                posix_spawn_file_actions_addopen(&actions, Int32(target), "/dev/null", O_RDWR, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, Int32(target), path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .stdout:
                posix_spawn_file_actions_adddup2(&actions, 1, Int32(target))
            case .pipe:
                // A socket pair, not a pipe: created close-on-exec in one call, so no child that
                // another thread starts meanwhile inherits it.
                var fds: [Int32] = [0, 0]
                guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
                    throw Failure(description: "socketpair: \(String(cString: strerror(errno)))")
                }
                let (child, parent) = (fds[0], fds[1])
                posix_spawn_file_actions_adddup2(&actions, child, Int32(target))
                ours[target] = parent
                theirs.append(child)
            }
        }
        // Every other descriptor is closed in the child (those not marked close-on-exec too).
        for fd in openDescriptors() where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let status = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        for fd in theirs { close(fd) }
        guard status == 0 else {
            for fd in ours.compactMap({ $0 }) { close(fd) }
            throw Failure(description: "cannot start \(program): \(String(cString: strerror(status)))")
        }
        return SpawnedProcess(pid: pid, stdin: ours[0], stdout: ours[1], stderr: ours[2])
    }

    /// Whether the child still runs (reaps it once it ended).
    public var isRunning: Bool {
        ending.withLock { ending in
            if ending != nil { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            ending = Self.decode(status)
            return false
        }
    }

    /// Waits until the child ends (blocking) and returns how.
    @discardableResult
    public func wait() -> Ending {
        if let known = ending.withLock({ $0 }) { return known }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return ending.withLock { $0 } ?? .exited(-1) }
        }
        let decoded = Self.decode(status)
        ending.withLock { $0 = decoded }
        return decoded
    }

    /// Sends `signal` unless the child already ended.
    public func send(_ signal: Int32) {
        if isRunning { _ = Glibc.kill(pid, signal) }
    }

    /// Writes all of `text` to the child's stdin; false when it is not piped or the child closed it.
    @discardableResult
    public func write(_ text: String) -> Bool {
        guard let stdin else { return false }
        return writeAll(stdin, Array(text.utf8))
    }

    /// Closes the child's stdin (a child reading it to the end then finishes).
    public func closeStdin() {
        if let stdin { close(stdin) }
    }

    /// Ends the child with SIGKILL and reaps it.
    public func kill() {
        send(SIGKILL)
        wait()
    }

    /// This process's open descriptors, from `/proc/self/fd` (the directory's own included).
    private static func openDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        var descriptors: [Int32] = []
        while let entry = readdir(directory) {
            let name = Files.name(of: entry)
            if let fd = Int32(name) { descriptors.append(fd) }
        }
        return descriptors
    }

    private static func decode(_ status: Int32) -> Ending {
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand: Glibc's macros are not imported.
        status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }
}

/// Writes all of `bytes` to `fd`, retrying EINTR; false when the other end is gone.
@discardableResult
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var rest = bytes[...]
    while !rest.isEmpty {
        let written = rest.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return false }
        rest = rest.dropFirst(written)
    }
    return true
}

/// Reads a descriptor until EOF, retrying EINTR, then closes it.
public func readAll(_ fd: Int32) -> [UInt8] {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        data.append(contentsOf: buffer[0..<count])
    }
    close(fd)
    return data
}
