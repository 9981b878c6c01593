import Testing
@testable import IMockNet
import IMockTestSupport

/// A stream delegate that writes `opening` when opened, then closes unless told to stay open;
/// it records how the stream ended. Loop-confined (read through `loop.submit`).
final class RecordingStream: HTTPStreamDelegate, @unchecked Sendable {
    let opening: [String]
    let staysOpen: Bool
    let maxPendingBytes: Int?
    private(set) var writer: HTTPStreamWriter?
    private(set) var opened = 0
    private(set) var ends: [HTTPStreamEnd] = []

    init(opening: [String], staysOpen: Bool, maxPendingBytes: Int? = nil) {
        self.opening = opening
        self.staysOpen = staysOpen
        self.maxPendingBytes = maxPendingBytes
    }

    func streamDidOpen(_ writer: HTTPStreamWriter) {
        opened += 1
        self.writer = writer
        if let maxPendingBytes { writer.maxPendingBytes = maxPendingBytes }
        for piece in opening { writer.write(piece) }
        if !staysOpen { writer.close() }
    }

    func streamDidClose(_ writer: HTTPStreamWriter, reason: HTTPStreamEnd) {
        ends.append(reason)
    }
}

/// A loopback server whose every request is answered by a stream with `delegate`.
private func streamingServer(_ delegate: RecordingStream) throws -> LoopbackServer {
    let box = UncheckedBox(delegate)
    return try LoopbackServer { _, _ in
        var head = HTTPResponse(status: 200)
        head.headers.set("Content-Type", "text/plain")
        head.headers.set("Content-Length", "999")  // ignored: a stream has no length
        return .stream(head: head, delegate: box.value)
    }
}

@Suite("Streamed HTTP responses")
struct StreamingResponseTests {
    @Test("HTTP/1.1: each write is one chunk, close sends the last chunk, then the connection closes")
    func chunkedFraming() async throws {
        let delegate = RecordingStream(opening: ["hello", " ", "world"], staysOpen: false)
        let server = try streamingServer(delegate)
        let client = try RawSocket(port: server.port)
        try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = String(decoding: try client.receiveUntilClosed(), as: UTF8.self)
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "5\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\n\r\n")
        #expect(try await server.loop.submit { delegate.ends } == [.finished])
        await server.stop()
    }

    @Test("HTTP/1.0: the bytes go out as they are and the end of the connection ends the body")
    func http10() async throws {
        let delegate = RecordingStream(opening: ["abc", "def"], staysOpen: false)
        let server = try streamingServer(delegate)
        let client = try RawSocket(port: server.port)
        try client.send("GET /s HTTP/1.0\r\n\r\n")
        let text = String(decoding: try client.receiveUntilClosed(), as: UTF8.self)
        #expect(text == "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nabcdef")
        await server.stop()
    }

    @Test("a HEAD request gets the head only and the delegate is never opened")
    func head() async throws {
        let delegate = RecordingStream(opening: ["x"], staysOpen: true)
        let server = try streamingServer(delegate)
        let client = try RawSocket(port: server.port)
        try client.send("HEAD /s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = String(decoding: try client.receiveUntilClosed(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(try await server.loop.submit { delegate.opened } == 0)
        await server.stop()
    }

    @Test("a client that goes away ends the stream (connectionClosed) and frees the connection")
    func clientGoesAway() async throws {
        let delegate = RecordingStream(opening: ["first"], staysOpen: true)
        let server = try streamingServer(delegate)
        var client: RawSocket? = try RawSocket(port: server.port)
        try client?.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
        let start = String(decoding: try client?.receive() ?? [], as: UTF8.self)
        #expect(start.contains("5\r\nfirst\r\n") || start.hasPrefix("HTTP/1.1 200"))
        #expect(try await server.connectionCount() == 1)
        client = nil  // closes the socket
        #expect(try await server.eventually { delegate.ends == [.connectionClosed] })
        #expect(try await server.connectionCount() == 0)
        // Writes after the end are refused, not queued.
        #expect(try await server.loop.submit { delegate.writer?.write("late") } == false)
        await server.stop()
    }

    @Test("a client that stops reading is dropped (slowConsumer) instead of buffered without bound")
    func slowConsumer() async throws {
        let delegate = RecordingStream(opening: [], staysOpen: true, maxPendingBytes: 256 * 1024)
        let server = try streamingServer(delegate)
        let client = try RawSocket(port: server.port)
        try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await server.eventually { delegate.opened == 1 })
        let writes = try await server.loop.submit {
            let block = [UInt8](repeating: 0x61, count: 256 * 1024)
            var count = 0
            while count < 1000, delegate.writer?.write(block) == true { count += 1 }
            return count
        }
        #expect(writes < 1000)
        #expect(try await server.loop.submit { delegate.ends } == [.slowConsumer])
        #expect(try await server.connectionCount() == 0)
        _ = client
        await server.stop()
    }

    @Test("server shutdown ends open streams with their last chunk")
    func shutdownEndsStreams() async throws {
        let delegate = RecordingStream(opening: ["x"], staysOpen: true)
        let server = try streamingServer(delegate)
        let client = try RawSocket(port: server.port)
        try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await server.eventually { delegate.opened == 1 })
        try await server.loop.submit { server.server.shutdown() }
        #expect(try await server.loop.submit { delegate.ends } == [.finished])
        let received = String(decoding: try client.receiveUntilClosed(), as: UTF8.self)
        #expect(received.hasSuffix("0\r\n\r\n"), "the chunked body ends properly: \(received)")
        _ = client
        await server.stop()
    }

    @Test("curl decodes the chunked stream")
    func curlReadsStream() async throws {
        try #require(ExternalCommand.isAvailable("curl"))
        let delegate = RecordingStream(opening: ["one ", "two ", "three"], staysOpen: false)
        let server = try streamingServer(delegate)
        let result = try await ExternalCommand.run("curl", ["-sN", "--max-time", "5", "http://127.0.0.1:\(server.port)/s"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "one two three")
        await server.stop()
    }
}
