import Foundation
import IMockNet
import IMockTestSupport

/// A blocking Server-Sent Events client over a raw socket: sends the request, reads the head,
/// undoes the chunked framing and splits the body into events (blank-line separated blocks).
final class StreamTestClient {
    /// One SSE block: its fields, and its comment lines (without the leading ':').
    struct Event {
        var id: String?
        var event: String?
        var data: String?
        var comments: [String] = []

        /// The `data` parsed as JSON.
        var json: [String: JSONAny] {
            (try? JSONDecoder().decode([String: JSONAny].self, from: Data((data ?? "").utf8))) ?? [:]
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    private(set) var socket: RawSocket?
    /// The response head, status line first.
    let head: String
    private var raw: [UInt8] = []
    private var text = ""

    /// Opens `path` with `Authorization: Bearer <token>` (none when nil) and `headers`
    /// (`"Last-Event-ID: 4"`).
    init(port: UInt16, path: String = "/_imock/events", token: String? = InProcessServer.adminSecret, headers: [String] = []) throws {
        let socket = try RawSocket(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        for header in headers { request += header + "\r\n" }
        try socket.send(request + "\r\n")
        var received: [UInt8] = []
        let separator = Array("\r\n\r\n".utf8)
        while true {
            let chunk = try socket.receive()
            guard !chunk.isEmpty else { throw Failure(description: "closed before the head") }
            received += chunk
            if let end = received.firstRange(of: separator) {
                head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                raw = Array(received[end.upperBound...])
                break
            }
        }
        self.socket = socket
    }

    /// The status code of the head.
    var status: Int { Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0 }

    /// The value of a header of the head (case-insensitive name).
    func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The next block, blocking up to the socket's read timeout.
    func next() throws -> Event {
        while true {
            if let end = text.range(of: "\n\n") {
                let block = String(text[..<end.lowerBound])
                text = String(text[end.upperBound...])
                return Self.parse(block)
            }
            try readChunk()
        }
    }

    /// The next block that is an event rather than only comments.
    func nextEvent() throws -> Event {
        while true {
            let block = try next()
            if block.event != nil || block.data != nil { return block }
        }
    }

    /// Closes the connection.
    func close() { socket = nil }

    /// Decodes one chunk of the chunked body into `text`.
    private func readChunk() throws {
        let crlf = Array("\r\n".utf8)
        while true {
            if let lineEnd = raw.firstRange(of: crlf) {
                let sizeText = String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self)
                guard let size = Int(sizeText, radix: 16) else { throw Failure(description: "bad chunk size '\(sizeText)'") }
                guard size > 0 else { throw Failure(description: "the stream ended") }
                let start = lineEnd.upperBound
                if raw.count >= start + size + 2 {
                    text += String(decoding: raw[start..<(start + size)], as: UTF8.self)
                    raw.removeFirst(start + size + 2)
                    return
                }
            }
            guard let socket else { throw Failure(description: "closed") }
            let more = try socket.receive()
            guard !more.isEmpty else { throw Failure(description: "the server closed the stream") }
            raw += more
        }
    }

    private static func parse(_ block: String) -> Event {
        var event = Event()
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                event.comments.append(line.dropFirst().trimmingCharacters(in: .whitespaces))
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch name {
            case "id": event.id = value
            case "event": event.event = value
            case "data": event.data = (event.data.map { $0 + "\n" } ?? "") + value
            default: break
            }
        }
        return event
    }
}
