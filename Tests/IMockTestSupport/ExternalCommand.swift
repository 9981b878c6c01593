import Foundation

/// Runs a third-party program (curl, python3, openssl) for interoperability tests.
public enum ExternalCommand {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Whether `name` is on the PATH.
    public static func isAvailable(_ name: String) -> Bool {
        (try? runBlocking("/bin/sh", ["-c", "command -v \(name)"]).status) == 0
    }

    /// Runs `executable` to completion on a Dispatch thread and captures its output.
    ///
    /// Tests must use this, not `runBlocking`: Swift Testing runs test bodies on the cooperative
    /// pool, which has one thread per core (two here); a test blocked for seconds on a child
    /// process starves every other test's continuations, and their servers' idle and token
    /// timers fire while those tests cannot move.
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(executable, arguments, stdin: stdin) })
            }
        }
    }

    /// Runs `executable` with `arguments` to completion on the calling thread and captures its
    /// output. Only for quick, one-off checks outside test bodies (e.g. whether a tool exists).
    public static func runBlocking(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try ProcessLaunch.run(process)
        if let stdin { try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Drain stderr on another thread while reading stdout here, so a chatty child can never
        // block on a full pipe. Raw read(2) with EINTR retried: FileHandle's readDataToEndOfFile
        // traps on EINTR (SIGCHLD from other tests' children interrupts it).
        let stderrBox = DataBox()
        let group = DispatchGroup()
        let stderrFD = err.fileHandleForReading.fileDescriptor
        DispatchQueue.global().async(group: group) { stderrBox.data = readToEnd(stderrFD) }
        let stdoutData = readToEnd(out.fileHandleForReading.fileDescriptor)
        group.wait()
        let stderrData = stderrBox.data
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// A fresh temporary directory.
    public static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "imock-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A self-signed certificate and key for `localhost`/127.0.0.1, made with the openssl CLI.
    public static func makeSelfSignedCertificate(in directory: String) async throws -> (certificate: String, key: String) {
        let certificate = directory + "/cert.pem"
        let key = directory + "/key.pem"
        let result = try await run("openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ])
        guard result.status == 0 else {
            throw RawSocket.Failure(description: "openssl req failed: \(result.stderr)")
        }
        return (certificate, key)
    }
}

/// Reads a pipe until EOF, retrying EINTR.
private func readToEnd(_ fd: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return data }
        data.append(contentsOf: buffer[0..<count])
    }
}

private final class DataBox: @unchecked Sendable {
    public var data = Data()
}

/// Starts child processes one at a time: Foundation's `Process.run()` on Linux is not safe to call
/// from several threads at once (a concurrent launch has crashed the test process in its memcpy).
public enum ProcessLaunch {
    private static let lock = NSLock()

    /// `process.run()` under the one launch lock of the test process.
    public static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
