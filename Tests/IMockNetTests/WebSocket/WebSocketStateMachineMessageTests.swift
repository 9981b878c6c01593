import Testing

@testable import IMockNet

@Suite("WebSocket state machine: messages")
struct WebSocketStateMachineMessageTests {
    static let roles: [WebSocketRole] = [.server, .client]

    @Test("A text frame is delivered as text", arguments: roles)
    func text(role: WebSocketRole) {
        var machine = WS.machine(role)
        #expect(machine.receive(WS.frame(to: role, 0x1, Array("héllo".utf8))) == [.text("héllo")])
    }

    @Test("A binary frame is delivered as binary", arguments: roles)
    func binary(role: WebSocketRole) {
        var machine = WS.machine(role)
        #expect(machine.receive(WS.frame(to: role, 0x2, [0, 0xFF, 7])) == [.binary([0, 0xFF, 7])])
    }

    @Test("Several frames in one read give several messages in order", arguments: roles)
    func batch(role: WebSocketRole) {
        var machine = WS.machine(role)
        let bytes = WS.frame(to: role, 0x1, Array("a".utf8)) + WS.frame(to: role, 0x2, [1]) + WS.frame(to: role, 0x1, [])
        #expect(machine.receive(bytes) == [.text("a"), .binary([1]), .text("")])
    }

    @Test("Fragments are assembled with a ping between them", arguments: roles)
    func fragmentsWithPing(role: WebSocketRole) {
        var machine = WS.machine(role)
        #expect(machine.receive(WS.frame(to: role, 0x1, Array("Hel".utf8), fin: false)) == [])
        #expect(
            machine.receive(WS.frame(to: role, 0x9, [7, 8]))
                == [.write(WS.written(by: role, 0xA, [7, 8])), .ping([7, 8])])
        #expect(machine.receive(WS.frame(to: role, 0x0, Array("l".utf8), fin: false)) == [])
        #expect(machine.receive(WS.frame(to: role, 0x0, Array("o".utf8))) == [.text("Hello")])
    }

    @Test("Binary fragments are assembled", arguments: roles)
    func binaryFragments(role: WebSocketRole) {
        var machine = WS.machine(role)
        let bytes = WS.frame(to: role, 0x2, [1, 2], fin: false) + WS.frame(to: role, 0x0, [], fin: false)
            + WS.frame(to: role, 0x0, [3])
        #expect(machine.receive(bytes) == [.binary([1, 2, 3])])
    }

    @Test("A ping is answered with a pong carrying the same payload", arguments: roles)
    func pingPong(role: WebSocketRole) {
        var machine = WS.machine(role)
        let payload = WS.payload(125)
        #expect(machine.receive(WS.frame(to: role, 0x9, payload)) == [.write(WS.written(by: role, 0xA, payload)), .ping(payload)])
        #expect(machine.receive(WS.frame(to: role, 0xA, [5])) == [.pong([5])])
    }

    @Test("Server pong bytes are exact and unmasked")
    func serverPongBytes() {
        var machine = WS.machine(.server)
        #expect(machine.receive(WS.clientFrame(0x9, Array("Hello".utf8))) == [
            .write([0x8A, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]), .ping(Array("Hello".utf8)),
        ])
    }

    @Test("UTF-8 split across fragments is valid", arguments: roles)
    func utf8AcrossFragments(role: WebSocketRole) {
        var machine = WS.machine(role)
        let text = Array("€😀".utf8)  // E2 82 AC F0 9F 98 80
        let bytes = WS.frame(to: role, 0x1, Array(text[0..<1]), fin: false)
            + WS.frame(to: role, 0x0, Array(text[1..<5]), fin: false) + WS.frame(to: role, 0x0, Array(text[5...]))
        #expect(machine.receive(bytes) == [.text("€😀")])
    }

    @Test(
        "Invalid UTF-8 in a text message fails with 1007",
        arguments: [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0x41, 0xE2, 0x82],
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        var machine = WS.machine(.server)
        let actions = machine.receive(WS.clientFrame(0x1, bytes))
        #expect(actions == Self.failure(.server, code: 1007, reason: actions.failureReason))
        #expect(actions.failureReason.isEmpty == false)
    }

    @Test("Invalid UTF-8 fails on the first bad fragment, before the message ends")
    func invalidUTF8FailsFast() {
        var machine = WS.machine(.client)
        #expect(machine.receive(WS.serverFrame(0x1, [0x41, 0xE2], fin: false)) == [])
        let actions = machine.receive(WS.serverFrame(0x0, [0x28], fin: false))
        #expect(actions == Self.failure(.client, code: 1007, reason: "text message is not valid UTF-8"))
    }

    @Test("A text message ending inside a code point fails with 1007")
    func truncatedAtEnd() {
        var machine = WS.machine(.server)
        let bytes = WS.clientFrame(0x1, [0x41, 0xF0, 0x9F], fin: false) + WS.clientFrame(0x0, [0x98])
        #expect(
            machine.receive(bytes)
                == Self.failure(.server, code: 1007, reason: "text message ends inside a UTF-8 sequence"))
    }

    @Test("Binary messages are not checked as UTF-8")
    func binaryNotValidated() {
        var machine = WS.machine(.server)
        #expect(machine.receive(WS.clientFrame(0x2, [0xFF, 0xC0])) == [.binary([0xFF, 0xC0])])
    }

    @Test("A continuation without a started message fails with 1002", arguments: roles)
    func orphanContinuation(role: WebSocketRole) {
        var machine = WS.machine(role)
        #expect(
            machine.receive(WS.frame(to: role, 0x0, [1]))
                == Self.failure(role, code: 1002, reason: "continuation frame without a started message"))
    }

    @Test("A new data frame inside a fragmented message fails with 1002", arguments: [UInt8(0x1), 0x2])
    func interleavedMessage(opcode: UInt8) {
        var machine = WS.machine(.server)
        #expect(machine.receive(WS.clientFrame(0x1, [0x41], fin: false)) == [])
        #expect(
            machine.receive(WS.clientFrame(opcode, [0x42]))
                == Self.failure(.server, code: 1002, reason: "new data frame inside a fragmented message"))
    }

    @Test("A message over maxMessageSize fails with 1009, single frame or fragmented", arguments: roles)
    func messageTooBig(role: WebSocketRole) {
        var single = WS.machine(role, maxFrameSize: 100, maxMessageSize: 10)
        #expect(single.receive(WS.frame(to: role, 0x2, WS.payload(10))) == [.binary(WS.payload(10))])
        #expect(
            single.receive(WS.frame(to: role, 0x2, WS.payload(11)))
                == Self.failure(role, code: 1009, reason: "message exceeds 10 bytes"))

        var fragmented = WS.machine(role, maxFrameSize: 100, maxMessageSize: 10)
        #expect(fragmented.receive(WS.frame(to: role, 0x1, Array("12345".utf8), fin: false)) == [])
        #expect(
            fragmented.receive(WS.frame(to: role, 0x0, Array("123456".utf8)))
                == Self.failure(role, code: 1009, reason: "message exceeds 10 bytes"))
    }

    @Test("A frame over maxFrameSize fails with 1009 from its header")
    func frameTooBig() {
        var machine = WS.machine(.client, maxFrameSize: 100)
        #expect(
            machine.receive([0x82, 0x7E, 0x01, 0x00])
                == Self.failure(.client, code: 1009, reason: "frame payload of 256 bytes exceeds 100"))
    }

    @Test("A parser error fails the connection with its code", arguments: roles)
    func parserError(role: WebSocketRole) {
        var machine = WS.machine(role)
        #expect(machine.receive([0xC1, 0x00]) == Self.failure(role, code: 1002, reason: "reserved bits set without a negotiated extension"))
        #expect(machine.isClosed)
        #expect(machine.receive(WS.frame(to: role, 0x1, [0x41])) == [])
        #expect(machine.sendText("late") == [])
        #expect(machine.transportClosed() == [])
    }

    @Test("Sending: the server writes unmasked frames, the client masked ones")
    func sending() {
        var server = WS.machine(.server)
        #expect(server.sendText("Hello") == [.write([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])])
        #expect(server.sendBinary([1, 2]) == [.write([0x82, 0x02, 1, 2])])
        #expect(server.sendPing([9]) == [.write([0x89, 0x01, 9])])
        #expect(server.sendPong([]) == [.write([0x8A, 0x00])])

        var client = WS.machine(.client)
        #expect(client.sendText("Hello") == [.write([0x81, 0x85, 1, 2, 3, 4, 0x49, 0x67, 0x6F, 0x68, 0x6E])])
        #expect(client.sendBinary([1, 2]) == [.write([0x82, 0x82, 1, 2, 3, 4, 0, 0])])
        #expect(client.sendPing(WS.payload(200)) == [.write(WS.clientFrame(0x9, WS.payload(125), key: WS.fixedKey))])
    }

    @Test("The default client masking key is random per frame")
    func randomMaskingKeys() {
        var client = WebSocketStateMachine(role: .client)
        let first = client.sendText("same")
        let second = client.sendText("same")
        #expect(first != second)
        guard case .write(let bytes) = first.first else {
            Issue.record("expected a write")
            return
        }
        #expect(bytes.count == 2 + 4 + 4)
        #expect(bytes[1] == 0x84)
    }

    /// What a machine of `role` does when it fails the connection.
    static func failure(_ role: WebSocketRole, code: UInt16, reason: String) -> [WebSocketAction] {
        [
            .write(WS.written(by: role, 0x8, WS.closePayload(code, reason))), .closeTransport,
            .closed(code: WebSocketCloseCode(code), reason: reason, initiatedLocally: true),
        ]
    }
}

extension [WebSocketAction] {
    /// The reason of the `.closed` action, if any.
    var failureReason: String {
        for action in self {
            if case .closed(_, let reason, _) = action { return reason }
        }
        return ""
    }
}
