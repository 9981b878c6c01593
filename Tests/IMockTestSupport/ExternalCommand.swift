import IMockCommon
import Foundation

/// Runs a third-party program (curl, python3, openssl) for interoperability tests.
public enum ExternalCommand {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Whether `name` is an executable file in a directory of the PATH. Looked up in the file
    /// system, not by a shell: it is asked from test bodies and traits, on the cooperative pool,
    /// which a child process would hold for its whole run.
    public static func isAvailable(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").contains { directory in
            var isDirectory: ObjCBool = false
            let candidate = "\(directory)/\(name)"
            return FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) && !isDirectory.boolValue
                && access(candidate, X_OK) == 0
        }
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
        let child = try SpawnedProcess.spawn(executable, arguments, stdin: .pipe, stdout: .pipe, stderr: .pipe)
        if let input = child.stdin {
            var bytes = Array((stdin ?? "").utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                bytes = bytes.dropFirst(written)
            }
            close(input)
        }
        // Drain stderr on another thread while reading stdout here, so a chatty child can never
        // block on a full pipe.
        let stderrBox = DataBox()
        let group = DispatchGroup()
        if let errorFD = child.stderr {
            DispatchQueue.global().async(group: group) { stderrBox.data = Data(readAll(errorFD)) }
        }
        let stdoutData = child.stdout.map(readAll) ?? []
        group.wait()
        let status: Int32
        switch child.wait() {
        case .exited(let code): status = code
        case .signalled(let signal): status = signal
        }
        return Output(
            status: status, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrBox.data, as: UTF8.self))
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

private final class DataBox: @unchecked Sendable {
    public var data = Data()
}

