import Testing

@testable import IMockNet

/// A client machine and a server machine wired back to back, with the bytes each writes
/// delivered to the other.
@Suite("WebSocket state machines back to back")
struct WebSocketEndToEndTests {
    /// The `.write` bytes of `actions`, concatenated.
    static func writes(_ actions: [WebSocketAction]) -> [UInt8] {
        actions.flatMap { action -> [UInt8] in
            if case .write(let bytes) = action { return bytes }
            return []
        }
    }

    /// The actions other than `.write`.
    static func events(_ actions: [WebSocketAction]) -> [WebSocketAction] {
        actions.filter {
            if case .write = $0 { return false }
            return true
        }
    }

    @Test("Messages of every length encoding flow both ways")
    func messagesBothWays() {
        var client = WebSocketStateMachine(role: .client)
        var server = WebSocketStateMachine(role: .server)
        for length in [0, 125, 126, 65535, 65536, 70000] {
            let payload = WS.payload(length)
            #expect(server.receive(Self.writes(client.sendBinary(payload))) == [.binary(payload)])
            #expect(client.receive(Self.writes(server.sendBinary(payload))) == [.binary(payload)])
        }
        let text = String(repeating: "héllo wörld 😀 ", count: 5000)
        #expect(server.receive(Self.writes(client.sendText(text))) == [.text(text)])
        #expect(client.receive(Self.writes(server.sendText(text))) == [.text(text)])
    }

    @Test("A client ping is answered by the server's automatic pong")
    func pingRoundTrip() {
        var client = WebSocketStateMachine(role: .client)
        var server = WebSocketStateMachine(role: .server)
        let serverActions = server.receive(Self.writes(client.sendPing([1, 2, 3])))
        #expect(Self.events(serverActions) == [.ping([1, 2, 3])])
        #expect(client.receive(Self.writes(serverActions)) == [.pong([1, 2, 3])])
    }

    @Test("The server closes with 4206: full handshake")
    func serverCloses() {
        var client = WebSocketStateMachine(role: .client)
        var server = WebSocketStateMachine(role: .server)
        let serverClose = server.close(code: WebSocketCloseCode(4206), reason: "kicked")
        let clientActions = client.receive(Self.writes(serverClose))
        #expect(
            Self.events(clientActions) == [.closed(code: WebSocketCloseCode(4206), reason: "kicked", initiatedLocally: false)])
        let serverActions = server.receive(Self.writes(clientActions))
        #expect(
            serverActions == [.closeTransport, .closed(code: WebSocketCloseCode(4206), reason: "", initiatedLocally: true)])
        #expect(client.transportClosed() == [.closeTransport])
    }

    @Test("The client closes with 1000: full handshake")
    func clientCloses() {
        var client = WebSocketStateMachine(role: .client)
        var server = WebSocketStateMachine(role: .server)
        let serverActions = server.receive(Self.writes(client.close(code: .normalClosure, reason: "bye")))
        #expect(
            Self.events(serverActions) == [
                .closeTransport, .closed(code: .normalClosure, reason: "bye", initiatedLocally: false),
            ])
        #expect(
            client.receive(Self.writes(serverActions)) == [.closed(code: .normalClosure, reason: "", initiatedLocally: true)])
    }

    @Test("A message in 1000 fragments fed one frame at a time")
    func manyFragments() {
        var server = WS.machine(.server)
        var expected: [UInt8] = []
        for index in 0..<1000 {
            let chunk = WS.payload(37)
            expected += chunk
            let opcode: UInt8 = index == 0 ? 0x2 : 0x0
            let actions = server.receive(WS.clientFrame(opcode, chunk, fin: index == 999))
            #expect(actions == (index == 999 ? [.binary(expected)] : []))
        }
    }

    @Test(
        "A masking-key generator returning the wrong count cannot crash the client",
        arguments: [[], [9], [1, 2, 3, 4, 5, 6]] as [[UInt8]])
    func faultyKeyGenerator(key: [UInt8]) {
        var client = WebSocketStateMachine(role: .client, maskingKeyGenerator: { key })
        var server = WebSocketStateMachine(role: .server)
        #expect(server.receive(Self.writes(client.sendText("ok"))) == [.text("ok")])
    }
}
