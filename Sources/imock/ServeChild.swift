#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import IMockCommon
import IMockHarness

/// The `imock serve` child of `imock exec`: this executable again, its output in a temporary
/// log that says the port it listens on, stopped with SIGTERM.
final class ServeChild {
    let process: SpawnedProcess
    let port: UInt16
    private let directory: String

    private init(process: SpawnedProcess, port: UInt16, directory: String) {
        self.process = process
        self.port = port
        self.directory = directory
    }

    /// How long the server may take to listen.
    static let startLimitMs = 30_000

    /// Starts `imock serve ARGUMENTS` and waits until it listens (or ends).
    static func start(_ arguments: [String]) -> Result<ServeChild, ExecFailure> {
        let directory: String
        do {
            directory = try Files.makeTemporaryDirectory(prefix: "imock-exec-")
        } catch {
            return .failure(ExecFailure(message: "cannot make a temporary directory: \(error)"))
        }
        let log = directory + "/serve.log"
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess.spawn(ProcessEnvironment.executablePath, ["serve", "--exit-with-parent"] + arguments, stdout: .file(log), stderr: .stdout)
        } catch {
            try? Files.removeTree(directory)
            return .failure(ExecFailure(message: "\(error)"))
        }
        let read = { (try? Files.read(log)).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        for _ in 0..<(startLimitMs / 20) {
            if let port = ServeLog.listeningPort(in: read()) { return .success(ServeChild(process: process, port: port, directory: directory)) }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        if process.isRunning { process.kill() }
        let status: Int32? = if case .exited(let code) = process.wait() { code } else { nil }
        let output = read()
        try? Files.removeTree(directory)
        return .failure(ExecFailure(message: String(output.suffix(2000)), exitStatus: status))
    }

    /// Stops the server (SIGTERM, then waits) and removes its log.
    func stop() {
        process.send(SIGTERM)
        process.wait()
        try? Files.removeTree(directory)
    }
}
