import IMockCommon
import IMockNet
import IMockTestSupport
import IMockWire
import Testing

/// Two clients sharing one token on one platform under policy 1: OpenIM's gateway never kicks a
/// connection holding the newcomer's token (`checkSameTokenFunc`), so both stay. imock once took
/// the token for the device, replaced each connection with the other (close 1000) and the
/// clients reconnected at once: 3,095 gateway logins in 10 s.
@Suite("OpenIM: two clients sharing a token")
struct OpenIMSharedTokenTests {
    @Test("policy 1, same platform, no deviceID: both connections stay, neither is closed")
    func bothStay() async throws {
        let fixture = try SessionFixture()
        let set = try fixture.control(
            "POST", "/_imock/apps/acme/chat/settings", json: #"{"loginPolicy":{"vendor":"openim","policy":1}}"#)
        try #require(set.status == 200)
        let token = try fixture.userToken("amy")
        func connect(_ operationID: String) throws -> RawWebSocketClient {
            try RawWebSocketClient(
                port: fixture.server.port,
                path: "/openim/acme/chat?sendID=amy&token=\(token)&platformID=5&operationID=\(operationID)&isBackground=false")
        }
        let first = try connect("op-first")
        let second = try connect("op-second")
        // Each answers its heartbeat: a replaced connection would have been closed instead.
        for client in [first, second] {
            try client.send(text: #"{"type":"ping","body":"b"}"#)
            var parser = WebSocketFrameParser(role: .client, maxFrameSize: 1 << 16)
            var frame: WebSocketFrame?
            while frame == nil {
                let chunk = try client.socket.receive()
                try #require(!chunk.isEmpty, "the connection was closed")
                parser.feed(chunk)
                frame = try parser.next()
            }
            #expect(frame?.opcode == .text, "a pong, not a close: \(String(describing: frame))")
        }
        let sessions = try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array ?? []
        #expect(sessions.filter { $0["user"]?.string == "amy" }.count == 2, "\(sessions)")
        #expect(!(try fixture.journalEvents()).contains("closed:1000"))
        await fixture.stop()
    }
}
