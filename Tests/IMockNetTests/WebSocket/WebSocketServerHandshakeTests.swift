import IMockCommon
import Testing

@testable import IMockNet

@Suite("WebSocket handshake: server side")
struct WebSocketServerHandshakeTests {
    static let rfcKey = "dGhlIHNhbXBsZSBub25jZQ=="
    static let rfcAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    static func upgradeRequest(
        method: String = "GET", version: HTTPVersion = .http1_1, removing: [String] = [],
        adding: [(String, String)] = []
    ) -> HTTPRequest {
        var headers: HTTPHeaders = [
            "Host": "server.example.com", "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Key": rfcKey, "Sec-WebSocket-Version": "13",
        ]
        for name in removing { headers.remove(name) }
        for (name, value) in adding { headers.add(name, value) }
        return HTTPRequest(method: method, target: "/chat?token=abc", version: version, headers: headers)
    }

    @Test("Accept key of the RFC 6455 §1.3 example")
    func rfcAcceptKey() {
        #expect(WebSocketHandshake.acceptKey(for: Self.rfcKey) == Self.rfcAccept)
    }

    @Test("A valid upgrade is accepted with a 101 response")
    func validUpgrade() throws {
        let request = Self.upgradeRequest(adding: [("Sec-WebSocket-Protocol", "chat, Superchat")])
        let upgrade = try WebSocketHandshake.validateUpgrade(request).get()
        #expect(upgrade.key == Self.rfcKey)
        #expect(upgrade.acceptKey == Self.rfcAccept)
        #expect(upgrade.requestedSubprotocols == ["chat", "Superchat"])
        #expect(upgrade.request.path == "/chat")
        #expect(
            upgrade.response(subprotocol: "Superchat")
                == HTTPResponse(
                    status: 101,
                    headers: [
                        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": Self.rfcAccept,
                        "Sec-WebSocket-Protocol": "Superchat",
                    ]))
        #expect(
            upgrade.response()
                == HTTPResponse(
                    status: 101,
                    headers: ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": Self.rfcAccept]))
        #expect(upgrade.response(subprotocol: "superchat").headers["Sec-WebSocket-Protocol"] == nil)
    }

    @Test("Header tokens are matched case-insensitively inside lists")
    func tokenLists() throws {
        var request = Self.upgradeRequest()
        request.headers.set("Upgrade", "WebSocket")
        request.headers.set("Connection", "keep-alive, UPGRADE")
        request.headers.set("Sec-WebSocket-Key", " \(Self.rfcKey) ")
        let upgrade = try WebSocketHandshake.validateUpgrade(request).get()
        #expect(upgrade.key == Self.rfcKey)
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var request: HTTPRequest
        var kind: WebSocketHandshake.HandshakeError.Kind
        var status: Int
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "POST", request: upgradeRequest(method: "POST"), kind: .methodNotGET, status: 405),
        Failure(name: "lower-case get", request: upgradeRequest(method: "get"), kind: .methodNotGET, status: 405),
        Failure(name: "HTTP/1.0", request: upgradeRequest(version: .http1_0), kind: .unsupportedHTTPVersion, status: 400),
        Failure(name: "no Upgrade", request: upgradeRequest(removing: ["Upgrade"]), kind: .missingUpgradeWebSocket, status: 400),
        Failure(
            name: "Upgrade: h2c", request: upgradeRequest(removing: ["Upgrade"], adding: [("Upgrade", "h2c")]),
            kind: .missingUpgradeWebSocket, status: 400),
        Failure(
            name: "no Connection", request: upgradeRequest(removing: ["Connection"]), kind: .missingConnectionUpgrade,
            status: 400),
        Failure(
            name: "Connection: keep-alive",
            request: upgradeRequest(removing: ["Connection"], adding: [("Connection", "keep-alive")]),
            kind: .missingConnectionUpgrade, status: 400),
        Failure(
            name: "no version", request: upgradeRequest(removing: ["Sec-WebSocket-Version"]),
            kind: .unsupportedWebSocketVersion, status: 426),
        Failure(
            name: "version 8",
            request: upgradeRequest(removing: ["Sec-WebSocket-Version"], adding: [("Sec-WebSocket-Version", "8")]),
            kind: .unsupportedWebSocketVersion, status: 426),
        Failure(name: "no key", request: upgradeRequest(removing: ["Sec-WebSocket-Key"]), kind: .missingKey, status: 400),
        Failure(
            name: "key not base64",
            request: upgradeRequest(removing: ["Sec-WebSocket-Key"], adding: [("Sec-WebSocket-Key", "not a key!")]),
            kind: .invalidKey, status: 400),
        Failure(
            name: "key of 15 bytes",
            request: upgradeRequest(
                removing: ["Sec-WebSocket-Key"], adding: [("Sec-WebSocket-Key", Base64.encode(WS.payload(15)))]),
            kind: .invalidKey, status: 400),
        Failure(
            name: "key of 17 bytes",
            request: upgradeRequest(
                removing: ["Sec-WebSocket-Key"], adding: [("Sec-WebSocket-Key", Base64.encode(WS.payload(17)))]),
            kind: .invalidKey, status: 400),
        Failure(
            name: "two keys", request: upgradeRequest(adding: [("Sec-WebSocket-Key", rfcKey)]), kind: .invalidKey,
            status: 400),
    ]

    @Test("Each invalid upgrade is refused with its status", arguments: failures)
    func refused(failure: Failure) {
        switch WebSocketHandshake.validateUpgrade(failure.request) {
        case .success:
            Issue.record("expected \(failure.kind)")
        case .failure(let error):
            #expect(error.kind == failure.kind)
            #expect(error.status == failure.status)
            #expect(error.response.status == failure.status)
            #expect(error.response.body == Array(error.description.utf8))
        }
    }

    @Test("426 carries Sec-WebSocket-Version: 13 and 405 carries Allow: GET")
    func errorHeaders() {
        let wrongVersion = Self.upgradeRequest(removing: ["Sec-WebSocket-Version"], adding: [("Sec-WebSocket-Version", "8")])
        guard case .failure(let versionError) = WebSocketHandshake.validateUpgrade(wrongVersion) else {
            Issue.record("expected a failure")
            return
        }
        #expect(
            versionError.response.headers == [
                "Sec-WebSocket-Version": "13", "Content-Type": "text/plain; charset=utf-8",
            ])
        guard case .failure(let methodError) = WebSocketHandshake.validateUpgrade(Self.upgradeRequest(method: "PUT")) else {
            Issue.record("expected a failure")
            return
        }
        #expect(methodError.headers == ["Allow": "GET"])
    }
}
