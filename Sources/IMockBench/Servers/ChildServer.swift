#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CIMockShims
import IMockCommon
import IMockNet

/// A server under test running as a child process (IMockCommon's `SpawnedProcess`: stdin from
/// `/dev/null`, stdout and stderr into a log file, no other descriptor of ours, a clean signal
/// mask), ready once its ports accept connections, stopped with SIGTERM (SIGKILL after a grace
/// period).
final class ChildServer: Sendable {
    let process: SpawnedProcess
    let name: String
    let logPath: String

    private init(process: SpawnedProcess, name: String, logPath: String) {
        self.process = process
        self.name = name
        self.logPath = logPath
    }

    /// Starts `argv` (argv[0] looked up on PATH), logging to `logPath`.
    static func spawn(_ argv: [String], name: String, logPath: String) throws(BenchError) -> ChildServer {
        do {
            let process = try SpawnedProcess.spawn(
                argv[0], Array(argv.dropFirst()), stdin: .null, stdout: .file(logPath), stderr: .stdout)
            return ChildServer(process: process, name: name, logPath: logPath)
        } catch {
            throw BenchError("cannot start \(name): \(error)")
        }
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
    var isRunning: Bool { process.isRunning }

    /// SIGTERM, then SIGKILL if it has not ended after `grace`; reaps it.
    func stop(grace: Duration = .seconds(30)) async {
        guard isRunning else { return }
        process.send(SIGTERM)
        let deadline = ContinuousClock.now + grace
        while isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if isRunning { process.kill() }
    }

    /// The child's resident set size in bytes.
    var residentBytes: Int? { ProcessProbe(pid: process.pid).residentBytes() }

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
        guard let child = try? spawn(argv, name: argv[0], logPath: logPath), case .exited(let status) = child.process.wait()
        else { return nil }
        return status
    }
}
