import IMockCommon
import Testing

@testable import IMockNet

@Suite("WebSocket handshake: client side")
struct WebSocketClientHandshakeTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    @Test("The client request has the exact expected bytes")
    func requestBytes() {
        let (bytes, key) = WebSocketHandshake.clientRequest(
            host: "localhost:8080", path: "/ws?user=a", extraHeaders: ["Sec-WebSocket-Protocol": "chat"], key: Self.key)
        #expect(key == Self.key)
        let expected =
            "GET /ws?user=a HTTP/1.1\r\nHost: localhost:8080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: chat\r\n\r\n"
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test("The default key is fresh base64 of 16 bytes")
    func randomKey() {
        let (_, first) = WebSocketHandshake.clientRequest(host: "h", path: "/")
        let (_, second) = WebSocketHandshake.clientRequest(host: "h", path: "/")
        #expect(first != second)
        #expect(first.utf8.count == 24)
        #expect(Base64.decode(first)?.count == 16)
    }

    @Test("CR and LF in caller values cannot inject header lines")
    func noInjection() {
        let (bytes, _) = WebSocketHandshake.clientRequest(
            host: "h\r\nEvil: 1", path: "/\n", extraHeaders: ["X-A": "b\r\nEvil: 2"], key: Self.key)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("Host: h  Evil: 1\r\n"))
        #expect(text.contains("GET /  HTTP/1.1\r\n"))
        #expect(text.contains("X-A: b  Evil: 2\r\n"))
    }

    static func head(status: Int = 101, removing: [String] = [], adding: [(String, String)] = []) -> HTTPResponseHead {
        var headers: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": accept]
        for name in removing { headers.remove(name) }
        for (name, value) in adding { headers.add(name, value) }
        return HTTPResponseHead(status: status, reasonPhrase: "Switching Protocols", headers: headers)
    }

    @Test("A correct 101 response is accepted")
    func acceptsValid() throws {
        try WebSocketHandshake.validateServerResponse(Self.head(), key: Self.key).get()
        try WebSocketHandshake.validateServerResponse(
            Self.head(adding: [("Sec-WebSocket-Protocol", "chat")]), key: Self.key, requestedSubprotocols: ["chat"]
        ).get()
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var head: HTTPResponseHead
        var kind: WebSocketHandshake.HandshakeError.Kind
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "status 200", head: head(status: 200), kind: .unexpectedStatus),
        Failure(name: "status 426", head: head(status: 426), kind: .unexpectedStatus),
        Failure(name: "no Upgrade", head: head(removing: ["Upgrade"]), kind: .missingUpgradeWebSocket),
        Failure(name: "no Connection", head: head(removing: ["Connection"]), kind: .missingConnectionUpgrade),
        Failure(name: "no Accept", head: head(removing: ["Sec-WebSocket-Accept"]), kind: .invalidAcceptKey),
        Failure(
            name: "wrong Accept",
            head: head(removing: ["Sec-WebSocket-Accept"], adding: [("Sec-WebSocket-Accept", "AAAAAAAAAAAAAAAAAAAAAAAAAAA=")]),
            kind: .invalidAcceptKey),
        Failure(
            name: "two Accepts", head: head(adding: [("Sec-WebSocket-Accept", accept)]), kind: .invalidAcceptKey),
        Failure(
            name: "extension", head: head(adding: [("Sec-WebSocket-Extensions", "permessage-deflate")]),
            kind: .unexpectedExtension),
        Failure(
            name: "subprotocol not offered", head: head(adding: [("Sec-WebSocket-Protocol", "chat")]),
            kind: .unexpectedSubprotocol),
    ]

    @Test("Each invalid response is refused", arguments: failures)
    func refused(failure: Failure) {
        switch WebSocketHandshake.validateServerResponse(failure.head, key: Self.key) {
        case .success:
            Issue.record("expected \(failure.kind)")
        case .failure(let error):
            #expect(error.kind == failure.kind)
            #expect(error.status == failure.head.status)
        }
    }

    @Test("Client request → server validation → server response → client validation")
    func endToEnd() throws {
        let (_, key) = WebSocketHandshake.clientRequest(host: "h", path: "/ws")
        let request = HTTPRequest(
            method: "GET", target: "/ws",
            headers: [
                "Host": "h", "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
                "Sec-WebSocket-Version": "13",
            ])
        let response = try WebSocketHandshake.validateUpgrade(request).get().response()
        var wire = "HTTP/1.1 \(response.status) Switching Protocols\r\n"
        for field in response.headers { wire += "\(field.name): \(field.value)\r\n" }
        wire += "\r\n"
        var parser = HTTPResponseHeadParser()
        let parsed = try #require(try parser.feed(Array(wire.utf8) + [0x81, 0x00]))
        #expect(parsed.leftover == [0x81, 0x00])
        try WebSocketHandshake.validateServerResponse(parsed.head, key: key).get()
    }
}
