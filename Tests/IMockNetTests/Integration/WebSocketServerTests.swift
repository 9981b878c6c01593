import Testing
@testable import IMockNet
import IMockTestSupport

@Suite("WebSocket over loopback")
struct WebSocketServerTests {
    @Test("text, binary (7-, 16- and 64-bit lengths) and ping round-trip through IMockNet's client")
    func echo() async throws {
        let server = try LoopbackServer.echo()
        let clientLoop = try EventLoop()
        clientLoop.start()
        let socket = try await TestWebSocket.connect(loop: clientLoop, port: server.port)
        socket.send(text: "héllo")
        #expect(await socket.next() == .text("héllo"))
        for size in [0, 125, 126, 65_535, 65_536, 200_000] {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
            socket.send(binary: payload)
            #expect(await socket.next() == .binary(payload), "size \(size)")
        }
        socket.ping([1, 2, 3])
        #expect(await socket.next() == .pong([1, 2, 3]))
        socket.close(code: 1000, reason: "bye")
        // The server's Close echoes the code; the reported close is the peer's frame.
        guard case .closed(let code, _)? = await socket.next() else {
            Issue.record("no close")
            return
        }
        #expect(code == 1000)
        clientLoop.stop()
        await server.stop()
    }

    @Test("an application close code (4206) from the server reaches the client")
    func applicationCloseCode() async throws {
        let server = try LoopbackServer.echo()
        let clientLoop = try EventLoop()
        clientLoop.start()
        let socket = try await TestWebSocket.connect(loop: clientLoop, port: server.port)
        socket.send(text: "close 4206 logged in elsewhere")
        #expect(await socket.next() == .closed(code: 4206, reason: "logged in elsewhere"))
        #expect(try await server.connectionCount(settlingAt: 0) == 0)
        clientLoop.stop()
        await server.stop()
    }

    @Test(
        "protocol violations close the connection with the RFC 6455 code",
        arguments: [
            // An unmasked text frame from a client.
            ([0x81, 0x02, 0x68, 0x69], 1002),
            // A masked text frame with invalid UTF-8 (0xC0 0x80, an overlong NUL), key 00000000.
            ([0x81, 0x82, 0, 0, 0, 0, 0xC0, 0x80], 1007),
            // Reserved bit 1 set.
            ([0xC1, 0x80, 0, 0, 0, 0], 1002),
            // Unknown opcode 3.
            ([0x83, 0x80, 0, 0, 0, 0], 1002),
            // A 64-bit length announcing 4 GiB: over the message limit.
            ([0x82, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], 1009),
        ] as [([UInt8], UInt16)])
    func violations(frame: [UInt8], expectedCode: UInt16) async throws {
        let server = try LoopbackServer.echo()
        let client = try RawSocket(port: server.port)
        try client.send(
            "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let handshake = try client.receiveResponse()
        #expect(handshake.head.status == 101)
        #expect(handshake.head.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        try client.send(frame)
        let reply = client.pending + (try client.receiveUntilClosed())
        // The server's Close frame: opcode 8, unmasked, code in network order.
        #expect(reply.count >= 4)
        #expect(reply.first == 0x88)
        #expect(reply.count >= 4 && UInt16(reply[2]) << 8 | UInt16(reply[3]) == expectedCode)
        await server.stop()
    }

    @Test("a bad upgrade request gets an HTTP error, not a WebSocket")
    func badUpgrade() async throws {
        let server = try LoopbackServer.echo()
        let client = try RawSocket(port: server.port)
        try client.send(
            "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n")
        let response = try client.receiveResponse()
        #expect(response.head.status == 426)
        #expect(response.head.headers["Sec-WebSocket-Version"] == "13")
        await server.stop()
    }
}
