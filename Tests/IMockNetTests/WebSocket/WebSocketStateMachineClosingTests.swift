import Testing

@testable import IMockNet

@Suite("WebSocket state machine: closing")
struct WebSocketStateMachineClosingTests {
    // MARK: Server

    @Test("Server: the client closes; the server echoes the code and closes TCP")
    func serverPeerInitiated() {
        var server = WS.machine(.server)
        #expect(
            server.receive(WS.clientFrame(0x8, WS.closePayload(1000, "bye"))) == [
                .write([0x88, 0x02, 0x03, 0xE8]), .closeTransport,
                .closed(code: .normalClosure, reason: "bye", initiatedLocally: false),
            ])
        #expect(!server.isOpen)
        #expect(server.isClosed)
        #expect(server.sendText("late") == [])
        #expect(server.close(code: .normalClosure, reason: "") == [])
        #expect(server.receive(WS.clientFrame(0x1, [0x41])) == [])
        #expect(server.transportClosed() == [])
    }

    @Test("Server: an application code from the client (4206) is echoed")
    func serverEchoesApplicationCode() {
        var server = WS.machine(.server)
        #expect(
            server.receive(WS.clientFrame(0x8, WS.closePayload(4206))) == [
                .write([0x88, 0x02, 0x10, 0x6E]), .closeTransport,
                .closed(code: WebSocketCloseCode(4206), reason: "", initiatedLocally: false),
            ])
    }

    @Test("Server: an empty close is answered with 1000 and reported as 1005")
    func serverEmptyClose() {
        var server = WS.machine(.server)
        #expect(
            server.receive(WS.clientFrame(0x8, [])) == [
                .write([0x88, 0x02, 0x03, 0xE8]), .closeTransport,
                .closed(code: .noStatusReceived, reason: "", initiatedLocally: false),
            ])
    }

    @Test("Server: the server closes with 4206; data is ignored until the client's close")
    func serverInitiated() {
        var server = WS.machine(.server)
        #expect(
            server.close(code: WebSocketCloseCode(4206), reason: "kicked")
                == [.write([0x88, 0x08, 0x10, 0x6E] + Array("kicked".utf8))])
        #expect(!server.isOpen)
        #expect(server.close(code: .goingAway, reason: "again") == [])
        #expect(server.sendText("late") == [])
        #expect(server.sendPing([1]) == [])
        #expect(server.receive(WS.clientFrame(0x1, [0x41]) + WS.clientFrame(0x9, [1]) + WS.clientFrame(0xA, [2])) == [])
        #expect(
            server.receive(WS.clientFrame(0x8, WS.closePayload(4206))) == [
                .closeTransport, .closed(code: WebSocketCloseCode(4206), reason: "", initiatedLocally: true),
            ])
        #expect(server.transportClosed() == [])
    }

    @Test("Server: the client drops TCP before answering the close: 1006")
    func serverInitiatedThenDrop() {
        var server = WS.machine(.server)
        _ = server.close(code: .goingAway, reason: "")
        #expect(server.transportClosed() == [.closeTransport, .closed(code: .abnormalClosure, reason: "", initiatedLocally: true)])
        #expect(server.transportClosed() == [])
    }

    // MARK: Client

    @Test("Client: the server closes with 4108; the client echoes it masked and waits for TCP close")
    func clientPeerInitiated() {
        var client = WS.machine(.client)
        #expect(
            client.receive(WS.serverFrame(0x8, WS.closePayload(4108, "bye"))) == [
                .write([0x88, 0x82, 1, 2, 3, 4, 0x11, 0x0E]),
                .closed(code: WebSocketCloseCode(4108), reason: "bye", initiatedLocally: false),
            ])
        #expect(client.isClosed)
        #expect(client.receive(WS.serverFrame(0x1, [0x41])) == [])
        #expect(client.transportClosed() == [.closeTransport])
        #expect(client.transportClosed() == [])
    }

    @Test("Client: the client closes; the server's close completes the handshake without closeTransport")
    func clientInitiated() {
        var client = WS.machine(.client)
        #expect(
            client.close(code: .normalClosure, reason: "done")
                == [.write([0x88, 0x86, 1, 2, 3, 4, 0x02, 0xEA, 0x67, 0x6B, 0x6F, 0x67])])
        #expect(client.receive(WS.serverFrame(0x1, [0x41])) == [])
        #expect(
            client.receive(WS.serverFrame(0x8, WS.closePayload(1000)))
                == [.closed(code: .normalClosure, reason: "", initiatedLocally: true)])
        #expect(client.transportClosed() == [.closeTransport])
    }

    // MARK: Both roles

    @Test("The transport drops while open: 1006", arguments: [WebSocketRole.server, .client])
    func abnormalClosure(role: WebSocketRole) {
        var machine = WS.machine(role)
        #expect(
            machine.transportClosed() == [
                .closeTransport, .closed(code: .abnormalClosure, reason: "", initiatedLocally: false),
            ])
        #expect(machine.receive(WS.frame(to: role, 0x1, [0x41])) == [])
        #expect(machine.sendText("x") == [])
    }

    @Test("Frames after the peer's close in the same read are ignored", arguments: [WebSocketRole.server, .client])
    func framesAfterClose(role: WebSocketRole) {
        var machine = WS.machine(role)
        let actions = machine.receive(
            WS.frame(to: role, 0x1, [0x41]) + WS.frame(to: role, 0x8, []) + WS.frame(to: role, 0x1, [0x42]))
        #expect(actions.first == .text("A"))
        #expect(actions.contains(.text("B")) == false)
        #expect(actions.last == .closed(code: .noStatusReceived, reason: "", initiatedLocally: false))
    }

    @Test("A close in the middle of a fragmented message is accepted", arguments: [WebSocketRole.server, .client])
    func closeDuringFragments(role: WebSocketRole) {
        var machine = WS.machine(role)
        #expect(machine.receive(WS.frame(to: role, 0x1, [0x41], fin: false)) == [])
        let actions = machine.receive(WS.frame(to: role, 0x8, WS.closePayload(1001)))
        #expect(actions.last == .closed(code: .goingAway, reason: "", initiatedLocally: false))
    }

    struct BadClose: Sendable, CustomTestStringConvertible {
        var name: String
        var payload: [UInt8]
        var code: UInt16
        var reason: String
        var testDescription: String { name }
    }

    static let badCloses: [BadClose] = [
        BadClose(name: "1-byte payload", payload: [0x03], code: 1002, reason: "close frame with a 1-byte payload"),
        BadClose(name: "code 999", payload: WS.closePayload(999), code: 1002, reason: "invalid close code 999"),
        BadClose(name: "code 1004", payload: WS.closePayload(1004), code: 1002, reason: "invalid close code 1004"),
        BadClose(name: "code 1005", payload: WS.closePayload(1005), code: 1002, reason: "invalid close code 1005"),
        BadClose(name: "code 1006", payload: WS.closePayload(1006), code: 1002, reason: "invalid close code 1006"),
        BadClose(name: "code 1015", payload: WS.closePayload(1015), code: 1002, reason: "invalid close code 1015"),
        BadClose(name: "code 2999", payload: WS.closePayload(2999), code: 1002, reason: "invalid close code 2999"),
        BadClose(name: "code 5000", payload: WS.closePayload(5000), code: 1002, reason: "invalid close code 5000"),
        BadClose(
            name: "reason not UTF-8", payload: WS.closePayload(1000) + [0xED, 0xA0, 0x80], code: 1007,
            reason: "close reason is not valid UTF-8"),
    ]

    @Test("Malformed close frames fail the connection", arguments: badCloses)
    func malformedClose(badClose: BadClose) {
        var server = WS.machine(.server)
        #expect(
            server.receive(WS.clientFrame(0x8, badClose.payload)) == [
                .write(WS.serverFrame(0x8, WS.closePayload(badClose.code, badClose.reason))), .closeTransport,
                .closed(code: WebSocketCloseCode(badClose.code), reason: badClose.reason, initiatedLocally: true),
            ])
        var client = WS.machine(.client)
        #expect(
            client.receive(WS.serverFrame(0x8, badClose.payload)) == [
                .write(WS.clientFrame(0x8, WS.closePayload(badClose.code, badClose.reason), key: WS.fixedKey)),
                .closeTransport,
                .closed(code: WebSocketCloseCode(badClose.code), reason: badClose.reason, initiatedLocally: true),
            ])
    }

    @Test("A protocol error after our close was sent writes no second close")
    func errorWhileClosing() {
        var server = WS.machine(.server)
        _ = server.close(code: .normalClosure, reason: "")
        #expect(
            server.receive([0x81, 0x00]) == [
                .closeTransport,
                .closed(code: .protocolError, reason: "unmasked frame from client", initiatedLocally: true),
            ])
    }

    @Test("Closing with a code that may not be sent writes an empty close frame")
    func closeWithLocalOnlyCode() {
        var server = WS.machine(.server)
        #expect(server.close(code: .noStatusReceived, reason: "ignored") == [.write([0x88, 0x00])])
    }

    @Test("A long close reason is cut to 123 bytes at a character boundary")
    func longReason() {
        var server = WS.machine(.server)
        let reason = String(repeating: "é", count: 62)  // 124 bytes
        let expectedReason = Array(String(repeating: "é", count: 61).utf8)  // 122 bytes
        #expect(server.close(code: .normalClosure, reason: reason) == [.write([0x88, 124, 0x03, 0xE8] + expectedReason)])
    }
}
