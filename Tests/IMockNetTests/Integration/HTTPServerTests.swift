import Testing
@testable import IMockNet
import IMockTestSupport

@Suite("HTTP server over loopback")
struct HTTPServerTests {
    @Test("keep-alive: two requests on one connection, then Connection: close ends it")
    func keepAlive() async throws {
        let server = try LoopbackServer.echo()
        let client = try RawSocket(port: server.port)
        try client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try client.receiveResponse()
        #expect(first.head.status == 200)
        #expect(first.head.headers["X-Path"] == "/a")
        try client.send("POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        let second = try client.receiveResponse()
        #expect(second.head.headers["X-Path"] == "/b")
        #expect(second.body == Array("hello".utf8))
        #expect(second.head.headers["Connection"] == "close")
        #expect(try client.receiveUntilClosed().isEmpty)
        await server.stop()
    }

    @Test("pipelined requests are answered in order")
    func pipelining() async throws {
        let server = try LoopbackServer.echo()
        let client = try RawSocket(port: server.port)
        try client.send(
            "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok"
                + "GET /3 HTTP/1.1\r\nHost: x\r\n\r\n")
        var paths: [String] = []
        for _ in 0..<3 { paths.append(try client.receiveResponse().head.headers["X-Path"] ?? "?") }
        #expect(paths == ["/1", "/2", "/3"])
        await server.stop()
    }

    @Test("Expect: 100-continue gets an interim response before the body is sent")
    func expectContinue() async throws {
        let server = try LoopbackServer.echo()
        let client = try RawSocket(port: server.port)
        try client.send("PUT /u HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.receive()
        #expect(interim == Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        try client.send("abc")
        let response = try client.receiveResponse()
        #expect(response.body == Array("abc".utf8))
        await server.stop()
    }

    @Test("chunked upload is reassembled")
    func chunkedUpload() async throws {
        let server = try LoopbackServer.echo()
        let client = try RawSocket(port: server.port)
        try client.send("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\n\r\n")
        #expect(try client.receiveResponse().body == Array("Wikipedia".utf8))
        await server.stop()
    }

    @Test(
        "malformed requests get their status with a JSON error body, then the connection closes",
        arguments: [
            ("GET / HTTP/1.1\r\nHost: x\r\nBad : 1\r\n\r\n", 400, "whitespace_before_colon"),
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, "unsupported_version"),
            ("GET / HTTP/1.1\r\n\r\n", 400, "missing_host"),
            ("GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 20_000) + "\r\n\r\n", 431, "header_section_too_large"),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2097152\r\n\r\n", 413, "body_too_large"),
        ])
    func malformed(request: String, status: Int, name: String) async throws {
        let server = try LoopbackServer.echo()
        let client = try RawSocket(port: server.port)
        try client.send(request)
        let response = try client.receiveResponse()
        #expect(response.head.status == status)
        #expect(response.head.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("\"error\":\"\(name)\""), "\(body)")
        #expect(try client.receiveUntilClosed().isEmpty)
        await server.stop()
    }

    @Test("a 2 MiB upload gets 413 while another client keeps being served")
    func oversizedBodyWhileOthersAreServed() async throws {
        let server = try LoopbackServer.echo()
        let uploader = try RawSocket(port: server.port)
        try uploader.send("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: \(2 << 20)\r\n\r\n")
        let bystander = try RawSocket(port: server.port)
        try bystander.send("GET /still-here HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try bystander.receiveResponse().head.status == 200)
        // The uploader keeps sending; it must still see the 413, not a reset.
        try? uploader.send([UInt8](repeating: 0x61, count: 64 * 1024))
        #expect(try uploader.receiveResponse().head.status == 413)
        await server.stop()
    }

    @Test("a client sending its head one byte at a time is cut off at the header timeout, others are served")
    func slowHeaders() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.headerTimeout = .milliseconds(600)
        let server = try LoopbackServer.echo(configuration: configuration)
        let slow = try RawSocket(port: server.port)
        let request = Array("GET /slow HTTP/1.1\r\nHost: x\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n".utf8)
        var sentBytes = 0
        var response: [UInt8] = []
        let started = ContinuousClock.now
        // One byte every 100 ms: always active, never complete in time.
        for byte in request {
            do { try slow.send([byte]) } catch { break }
            sentBytes += 1
            try await Task.sleep(for: .milliseconds(100))
            if ContinuousClock.now - started > .seconds(1) { break }
        }
        let bystander = try RawSocket(port: server.port)
        try bystander.send("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try bystander.receiveResponse().head.status == 200)
        response = try slow.receiveUntilClosed()
        let text = String(decoding: response, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 408 "), "\(text)")
        #expect(text.contains("request_timeout"))
        #expect(sentBytes < request.count)
        await server.stop()
    }

    @Test("an idle keep-alive connection is closed after the idle timeout")
    func idleTimeout() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.idleTimeout = .milliseconds(200)
        let server = try LoopbackServer.echo(configuration: configuration)
        let client = try RawSocket(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.receiveResponse().head.status == 200)
        #expect(try client.receiveUntilClosed().isEmpty)
        #expect(try await server.connectionCount(settlingAt: 0) == 0)
        await server.stop()
    }

    @Test("connections over the maximum get 503; the server keeps serving the others")
    func maxConnections() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.maxConnections = 2
        let server = try LoopbackServer.echo(configuration: configuration)
        let first = try RawSocket(port: server.port)
        let second = try RawSocket(port: server.port)
        try first.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try first.receiveResponse().head.status == 200)
        let third = try RawSocket(port: server.port)
        let refused = String(decoding: try third.receiveUntilClosed(), as: UTF8.self)
        #expect(refused.hasPrefix("HTTP/1.1 503 "))
        try second.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try second.receiveResponse().head.status == 200)
        await server.stop()
    }

    @Test("listens on IPv6 loopback with an OS-chosen port")
    func ipv6() async throws {
        guard (try? SocketAddress.resolve(host: "::1", port: 0)) != nil,
            let server = try? LoopbackServer.echo(host: "::1")
        else { return }  // no IPv6 on this machine
        #expect(server.address.family == AF_INET6_VALUE)
        #expect(server.port != 0)
        let client = try RawSocket(port: server.port, host: "::1")
        try client.send("GET /v6 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.receiveResponse().head.headers["X-Path"] == "/v6")
        await server.stop()
    }
}
