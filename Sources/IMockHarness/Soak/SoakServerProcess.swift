import IMockCommon
import Synchronization

/// The `imock serve --clock virtual --data DIR` child of a crash-restart soak (docs/SOAK.md §
/// Crash and restart): killed with SIGKILL in the middle of the load and started again on the
/// same data directory and port. Its files live in a temporary directory removed at the end.
final class SoakServerProcess: Sendable {
    /// The imock executable.
    let executable: String
    let adminSecret: String
    /// The temporary directory: `data/` (the store) and `serve.log` (the child's output).
    let base: String
    private let outputLimitBytes: Int
    /// The port (0 until the first start listens) and the running child: set by the soak's task
    /// at the start, by its loop at a crash, and at the end.
    private let state = Mutex<(port: UInt16, process: SpawnedProcess?)>((0, nil))

    /// The port it listens on (0 before the first start).
    var port: UInt16 { state.withLock { $0.port } }
    /// The running child, if any.
    var process: SpawnedProcess? { state.withLock { $0.process } }

    var dataDirectory: String { base + "/data" }
    var logPath: String { base + "/serve.log" }

    /// Makes the temporary directory; starts nothing yet.
    init(executable: String, adminSecret: String, outputLimitBytes: Int) throws(SoakFailure) {
        do {
            base = try Files.makeTemporaryDirectory(prefix: "imock-soak-")
        } catch {
            throw SoakFailure("cannot make a temporary directory: \(error)")
        }
        self.executable = executable
        self.adminSecret = adminSecret
        self.outputLimitBytes = outputLimitBytes
    }

    /// Starts the server: on a port the kernel picks the first time (read from its log), on
    /// the same port afterwards. Returns once it listens (the first time) or once it was
    /// spawned (afterwards: the caller waits for its control API).
    func start() async throws(SoakFailure) {
        try spawn()
        guard port == 0 else { return }
        for _ in 0..<400 {
            if let found = ServeLog.listeningPort(in: log) {
                state.withLock { $0.port = found }
                return
            }
            guard process?.isRunning == true else { break }
            try? await Task.sleep(for: .milliseconds(25))
        }
        let output = log
        stop()
        throw SoakFailure("imock serve did not start listening: \(output.suffix(400))")
    }

    /// Starts it again on the same port and data (after ``crash()``), without waiting.
    func restart() throws(SoakFailure) { try spawn() }

    private func spawn() throws(SoakFailure) {
        let port = self.port
        let arguments = [
            "serve", "--exit-with-parent", "--clock", "virtual", "--data", dataDirectory, "--admin-secret", adminSecret,
            "--max-ws-output-bytes", String(outputLimitBytes), "--port", String(port),
        ]
        do {
            // A restart logs to a file of its own: the first start's log says the port.
            let child = try SpawnedProcess.spawn(
                executable, arguments, stdout: .file(logPath + (port == 0 ? "" : ".restart")), stderr: .stdout)
            state.withLock { $0.process = child }
        } catch {
            throw SoakFailure("cannot start \(executable) serve: \(error)")
        }
    }

    /// What the first start logged.
    private var log: String { (try? Files.read(logPath)).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// SIGKILL: no shutdown, no last commit; the kernel closes its sockets.
    func crash() {
        state.withLock { $0.process.take() }?.kill()
    }

    /// Ends the child (SIGKILL: the soak is over) and removes the temporary directory.
    func stop() {
        crash()
        try? Files.removeTree(base)
    }
}
