import Foundation

/// Runs a third-party program (curl, python3, openssl) for interoperability tests.
public enum ExternalCommand {
    public struct Output {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Whether `name` is on the PATH.
    public static func isAvailable(_ name: String) -> Bool {
        (try? run("/bin/sh", ["-c", "command -v \(name)"]).status) == 0
    }

    /// Runs `executable` with `arguments` to completion and captures its output.
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Drain stderr on another thread while reading stdout here, so a chatty child can never
        // block on a full pipe.
        let stderrBox = DataBox()
        let group = DispatchGroup()
        let stderrHandle = err.fileHandleForReading
        DispatchQueue.global().async(group: group) { stderrBox.data = stderrHandle.readDataToEndOfFile() }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
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
    public static func makeSelfSignedCertificate(in directory: String) throws -> (certificate: String, key: String) {
        let certificate = directory + "/cert.pem"
        let key = directory + "/key.pem"
        let result = try run("openssl", [
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
