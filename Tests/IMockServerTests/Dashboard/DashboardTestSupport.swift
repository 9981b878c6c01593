import Foundation
import IMockNet
import IMockTestSupport

/// Raw HTTP for the dashboard tests: any method and headers, the answer's head and text.
enum DashboardHTTP {
    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var text: String
    }

    static func get(port: UInt16, _ path: String, headers: [(String, String)] = []) throws -> Answer {
        try send(port: port, "GET", path, headers: headers)
    }

    static func send(port: UInt16, _ method: String, _ path: String, headers: [(String, String)] = []) throws -> Answer {
        let socket = try RawSocket(port: port)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try socket.send(request + "\r\n")
        let response = try socket.receiveResponse()
        return Answer(
            status: response.head.status, headers: response.head.headers,
            text: String(decoding: response.body, as: UTF8.self))
    }
}

/// The repository checkout the tests run from, and its scripts.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func script(_ name: String) -> String { root + "/scripts/" + name }

    /// Runs `scripts/<name>` with bash, off the cooperative pool, pointing it at the imock
    /// executable this test run built (`IMOCK_BINARY`).
    static func run(script name: String, _ arguments: [String] = []) async throws -> ExternalCommand.Output {
        try await ExternalCommand.run(
            "/usr/bin/env", ["IMOCK_BINARY=\(try IMockProcess.binaryPath())", "bash", script(name)] + arguments)
    }
}

/// Every capture of `pattern`'s first group in `text`.
func captures(of pattern: String, in text: String) -> [String] {
    guard let regex = try? Regex(pattern) else { return [] }
    return text.matches(of: regex).compactMap { match in
        match.output.count > 1 ? match.output[1].substring.map(String.init) : nil
    }
}
