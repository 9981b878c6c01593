import IMockCommon
import Foundation
import Synchronization

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A running `imock serve --port 0` child process built from this package.
///
/// Its standard error (the log) is drained continuously into a buffer the test can read, so a
/// chatty child never blocks on a full pipe; the port comes from the `listening` log line.
/// The child is killed (SIGKILL) if the object goes away while it still runs.
public final class IMockProcess: @unchecked Sendable {
    /// Why the child could not be started or did not stop cleanly.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the child's log where it helps.
        public var description: String
    }

    /// The port the child listens on, read from its `listening` log line (text or JSON format).
    public let port: UInt16
    /// The child's process id.
    public let pid: Int32

    private let process: SpawnedProcess
    private let log: LogCollector

    /// How long the child may take to print its `listening` line.
    public static let startupTimeout: Duration = .seconds(30)

    /// Starts `imock serve --port 0 <arguments>` and waits for its `listening` line.
    /// With `openFileLimit`, the child runs through `/bin/sh -c 'ulimit -n LIMIT; exec imock …'`
    /// so both its soft and hard descriptor limits are `LIMIT`; with `fileSizeLimitBlocks`, its
    /// largest file is that many blocks of `/bin/sh`'s `ulimit -f` (512 bytes for dash).
    /// The child's session idle timeout is ``PatientTimeouts/sessionIdle`` (through its
    /// environment variable, so a `--session-idle-timeout` in `arguments` still wins).
    public static func start(
        _ arguments: [String] = [], openFileLimit: Int? = nil, fileSizeLimitBlocks: Int? = nil
    ) async throws -> IMockProcess {
        // --exit-with-parent: a test process that crashes does not leave its servers running.
        // `env` execs the binary in its own place: the child's pid stays the one signalled.
        let command = [
            "/usr/bin/env", "IMOCK_SESSION_IDLE_TIMEOUT=\(PatientTimeouts.sessionIdle.components.seconds)", try binaryPath(),
            "serve", "--port", "0", "--exit-with-parent",
        ] + arguments
        let process: SpawnedProcess
        let limits = [openFileLimit.map { "ulimit -n \($0)" }, fileSizeLimitBlocks.map { "ulimit -f \($0)" }].compactMap { $0 }
        if !limits.isEmpty {
            // "$0" is the program and "$@" the arguments: nothing is re-parsed by the shell.
            process = try SpawnedProcess.spawn(
                "/bin/sh", ["-c", limits.joined(separator: " && ") + " && exec \"$0\" \"$@\""] + command, stdout: .null)
        } else {
            process = try SpawnedProcess.spawn(command[0], Array(command.dropFirst()), stdout: .null)
        }
        let log = LogCollector()
        log.startDraining(process.stderr!)
        let port: UInt16
        do {
            port = try await log.waitForPort(timeout: startupTimeout)
        } catch {
            process.send(SIGKILL)
            process.wait()
            throw error
        }
        return IMockProcess(process: process, log: log, port: port)
    }

    private init(process: SpawnedProcess, log: LogCollector, port: UInt16) {
        self.process = process
        self.log = log
        self.port = port
        self.pid = process.pid
    }

    deinit {
        if process.isRunning {
            process.send(SIGKILL)
            process.wait()
        }
    }

    /// Everything the child wrote to standard error so far.
    public var logText: String { log.text }

    /// Sends SIGTERM, waits for the child to exit, and throws unless it exited with status 0.
    public func stop() throws {
        let status = terminate()
        guard status == .exited(0) else {
            throw Failure(description: "imock serve ended with \(status), expected exit status 0; log:\n\(logText)")
        }
    }

    /// How the child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        /// The child called `exit` with this status.
        case exited(Int32)
        /// The child was killed by this signal.
        case signalled(Int32)

        /// `exit status N` or `signal N`.
        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// Sends SIGTERM and waits for the child; returns how it ended.
    public func terminate() -> Termination {
        process.send(SIGTERM)
        return waitForExit()
    }

    /// Sends SIGKILL — the process ends at once, whatever it was doing — and waits for it.
    @discardableResult
    public func kill() -> Termination {
        process.send(SIGKILL)
        return waitForExit()
    }

    /// Waits for the child to end (by itself, or after a signal sent before); returns how.
    public func waitForExit() -> Termination {
        let ending = process.wait()
        log.waitUntilDrained()
        switch ending {
        case .exited(let status): return .exited(status)
        case .signalled(let signal): return .signalled(signal)
        }
    }

    /// The `imock` executable next to the test bundle (the build's products directory), or the
    /// path in `IMOCK_BINARY` when set.
    public static func binaryPath() throws -> String {
        if let override = ProcessInfo.processInfo.environment["IMOCK_BINARY"], !override.isEmpty {
            return override
        }
        var candidates: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((executable as NSString).deletingLastPathComponent)
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append((bundle.bundlePath as NSString).deletingLastPathComponent)
        }
        for directory in candidates {
            let path = directory + "/imock"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw Failure(
            description: "the imock executable was not found next to the test bundle (looked in "
                + "\(candidates.joined(separator: ", "))); build it first with `swift build --build-tests` "
                + "or set IMOCK_BINARY")
    }
}

/// Reads the child's standard error on a thread of its own until EOF, and hands the port of the
/// first `listening` line to the waiting test.
private final class LogCollector: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var port: UInt16?
        var reachedEOF = false
        var portWaiter: CheckedContinuation<UInt16, any Error>?
    }

    private let state = Mutex(State())
    private let drained = DispatchSemaphore(value: 0)

    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    func startDraining(_ fd: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                append(buffer[0..<count])
            }
            close(fd)
            finish()
            drained.signal()
        }
        thread.start()
    }

    /// Waits for the port of the `listening` line; fails at EOF or after `timeout`.
    func waitForPort(timeout: Duration) async throws -> UInt16 {
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            resumeWaiter(with: .failure(IMockProcess.Failure(
                description: "imock serve printed no listening line within \(timeout); log:\n\(text)")))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready: Result<UInt16, any Error>? = state.withLock { state in
                if let port = state.port { return .success(port) }
                if state.reachedEOF { return .failure(Self.exitedEarly(state.bytes)) }
                state.portWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    func waitUntilDrained() {
        drained.wait()
        drained.signal()
    }

    private func append(_ chunk: ArraySlice<UInt8>) {
        let waiter: (CheckedContinuation<UInt16, any Error>, UInt16)? = state.withLock { state in
            state.bytes.append(contentsOf: chunk)
            guard state.port == nil, let port = Self.listeningPort(in: state.bytes) else { return nil }
            state.port = port
            guard let waiter = state.portWaiter else { return nil }
            state.portWaiter = nil
            return (waiter, port)
        }
        if let (continuation, port) = waiter { continuation.resume(returning: port) }
    }

    private func finish() {
        let waiter: (CheckedContinuation<UInt16, any Error>, [UInt8])? = state.withLock { state in
            state.reachedEOF = true
            guard let waiter = state.portWaiter else { return nil }
            state.portWaiter = nil
            return (waiter, state.bytes)
        }
        if let (continuation, bytes) = waiter { continuation.resume(throwing: Self.exitedEarly(bytes)) }
    }

    private func resumeWaiter(with result: Result<UInt16, any Error>) {
        let waiter = state.withLock { state in
            defer { state.portWaiter = nil }
            return state.portWaiter
        }
        waiter?.resume(with: result)
    }

    private static func exitedEarly(_ bytes: [UInt8]) -> IMockProcess.Failure {
        IMockProcess.Failure(
            description: "imock serve closed its log before a listening line; log:\n"
                + String(decoding: bytes, as: UTF8.self))
    }

    /// The port in the first complete `listening` line: `… listening address=HOST:PORT …` (text
    /// log) or `{…"event":"listening","address":"HOST:PORT"…}` (JSON log).
    static func listeningPort(in bytes: [UInt8]) -> UInt16? {
        // Only whole lines: a chunk may end inside the port number.
        guard let lastNewline = bytes.lastIndex(of: 0x0A) else { return nil }
        let text = String(decoding: bytes[..<lastNewline], as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let address: Substring
            if line.contains(" listening "),
                let field = line.split(separator: " ").first(where: { $0.hasPrefix("address=") })
            {
                address = field.dropFirst("address=".count)
            } else if line.contains("\"event\":\"listening\""),
                let start = line.range(of: "\"address\":\"")?.upperBound,
                let end = line[start...].firstIndex(of: "\"")
            {
                address = line[start..<end]
            } else {
                continue
            }
            guard let colon = address.lastIndex(of: ":") else { continue }
            return UInt16(address[address.index(after: colon)...])
        }
        return nil
    }
}
