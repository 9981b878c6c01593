#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import IMockCommon
import IMockNet

/// A server under test running as a child process: started with `posix_spawnp` (stdin from
/// `/dev/null`, stdout and stderr into a log file, no other descriptor of ours), ready once
/// its ports accept connections, stopped with SIGTERM (SIGKILL after a grace period).
final class ChildServer: @unchecked Sendable {
    let pid: pid_t
    let name: String
    let logPath: String
    fileprivate(set) var ended = false

    private init(pid: pid_t, name: String, logPath: String) {
        self.pid = pid
        self.name = name
        self.logPath = logPath
    }

    /// Starts `argv` (argv[0] looked up on PATH), logging to `logPath`.
    static func spawn(_ argv: [String], name: String, logPath: String) throws(BenchError) -> ChildServer {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let open = Files.entries(of: "/proc/self/fd") ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        // The child starts with no signal blocked and the usual dispositions, whatever the
        // spawning thread had (a blocked SIGTERM would make it unstoppable).
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
        let arguments = argv.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, argv[0], &actions, &attributes, arguments, environ)
        guard status == 0 else {
            throw BenchError("cannot start \(name) (\(argv[0])): \(String(cString: strerror(status)))")
        }
        return ChildServer(pid: pid, name: name, logPath: logPath)
    }

    /// Waits until every port in `ports` on 127.0.0.1 accepts a connection, or throws when the
    /// child ended or `timeout` passed (with the end of its log).
    func waitUntilListening(on ports: [UInt16], timeout: Duration) async throws(BenchError) {
        let deadline = ContinuousClock.now + timeout
        for port in ports {
            while !Self.accepts(port) {
                guard isRunning else { throw BenchError("\(name) ended before listening on \(port):\n\(logTail)") }
                guard ContinuousClock.now < deadline else {
                    throw BenchError("\(name) did not listen on \(port) within \(timeout):\n\(logTail)")
                }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Whether the child still runs (reaps it once it ended).
    var isRunning: Bool {
        guard !ended else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { ended = true }
        return !ended
    }

    /// SIGTERM, then SIGKILL if it has not ended after `grace`; reaps it.
    func stop(grace: Duration = .seconds(30)) async {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            ended = true
        }
    }

    /// The child's resident set size in bytes (`VmRSS` of /proc/PID/status).
    var residentBytes: Int? {
        guard let bytes = try? Files.read("/proc/\(pid)/status") else { return nil }
        let status = String(decoding: bytes, as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kib = Int(fields[1]) { return kib * 1024 }
        }
        return nil
    }

    /// The last lines of the child's log.
    var logTail: String {
        let text = (try? Files.read(logPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(20).joined(separator: "\n")
    }

    /// Whether 127.0.0.1:`port` accepts a TCP connection now (a blocking connect on loopback).
    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }

    /// A port the kernel just handed out on 127.0.0.1 (free when this returns; a server started
    /// right after binds it).
    static func freePort() throws(BenchError) -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw BenchError("bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw BenchError("getsockname: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

extension ChildServer {
    /// Runs `argv` to its end (blocking) and returns its exit status, nil when it could not
    /// start or was killed by a signal.
    static func exitStatus(of argv: [String], logPath: String) -> Int32? {
        guard let child = try? spawn(argv, name: argv[0], logPath: logPath) else { return nil }
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        child.ended = true
        let signalled = status & 0x7F
        return signalled == 0 ? (status >> 8) & 0xFF : nil
    }
}
