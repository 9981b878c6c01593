import IMockTestSupport
import Testing

/// The OpenIM faces against clients we did not write: the PyPI `openim-sdk-core` 0.1.11
/// (AGPL-3.0; installed by .ci/run at test time, never copied), unmodified, and a gateway client
/// written from docs/PROTOCOL-OPENIM.md that uses that package's gob code (Go SDK frames) or
/// JSON (`sdkType=js`). Skipped with a message when the package is missing.
@Suite("OpenIM gateway and REST with Python clients", .serialized)
struct OpenIMPythonTests {
    static let missing: Comment = "openim-sdk-core 0.1.11 is not installed (pip install openim-sdk-core==0.1.11; .ci/run does)"

    @Test("gateway: handshake refusals, isMsgResp, newest seq, pull, send, push, background, heartbeat, kicks, logout, closes",
          .enabled(Self.missing) { await OpenIMServerFixture.hasPythonClient.value },
          arguments: ["gob", "json"])
    func gateway(encoding: String) async throws {
        let fixture = try await OpenIMServerFixture()
        let result = try await ExternalCommand.run(
            "python3", [OpenIMServerFixture.script("openim_gateway.py")] + fixture.scriptArguments + [encoding])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.gatewayLines)
        // The journal names the dialect and records the gateway's kicks with their codes.
        let journal = try fixture.http.request("GET", "/_imock/journal?app=acme%23chat", token: InProcessServer.adminSecret)
        let entries = journal.body["entries"]?.array ?? []
        #expect(!entries.isEmpty && entries.allSatisfy { $0["dialect"]?.string == "openim" })
        let kicks = entries.compactMap { $0["event"]?["frame"]?["op"]?.string == "kicked" ? $0["event"]?["frame"]?["code"]?.int : nil }
        #expect(kicks == [2002, 2002, 217])
        await fixture.stop()
    }

    static let gatewayLines = """
        no token 1602 ConnArgsErr
        platform abc 1602 ConnArgsErr
        platform 12 1602 ConnArgsErr
        no operationID 1602 ConnArgsErr
        sdkType rust 1602 ConnArgsErr
        isMsgResp maybe 1602 ConnArgsErr
        no isBackground 500 ServerInternalError
        garbage token 1503 TokenMalformedError
        forged token 1505 TokenUnknownError
        other user 1502 TokenInvalidError
        other platform 1502 TokenInvalidError
        unknown app 1004 RecordNotFoundError
        isMsgResp refused 1503 close 1000
        isMsgResp accepted {"errCode":0,"errMsg":"","errDlt":""}
        send 1003 a1 op-a1 0 c1 True True
        newest True si_alice_bob True
        pull [('alice', 'bob', 'hello', True, 1, 101)] True
        reply a2
        push 2001 True [('si_alice_bob', ['live'])]
        group message 1001 ArgsError
        1006 1001 b3
        background 0 True
        heartbeat {"type":"pong","body":"hb"}
        kicked 2002 close 4999
        old token 1506 TokenKickedError
        other platform stays upgraded
        forced 2002 close 4999
        forced token 1506 TokenKickedError
        web still 0
        logout 2003 0 w2 close 1000
        other sendID close 1008
        unknown request close 1008
        not a frame close 1007
        revoked 1507 TokenNotExistError
        expired 1501 TokenExpiredError
        control kick 2002 close 4217
        fault dropped

        """

    @Test("openim-sdk-core 0.1.11: connect, pull offline, send and receive, kicked by policy 1 and by force logout, expired and invalid tokens",
          .enabled(Self.missing) { await OpenIMServerFixture.hasPythonClient.value })
    func pypiSDK() async throws {
        let fixture = try await OpenIMServerFixture()
        let data = try ExternalCommand.temporaryDirectory()
        let result = try await ExternalCommand.run(
            "python3", [OpenIMServerFixture.script("openim_sdk_client.py")] + fixture.scriptArguments + [data])
        await fixture.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                alice ('connected',)
                bob ('connected',)
                bob ('offline', 'alice', 'hello offline')
                alice ('new', 'bob', 'hi alice')
                bob ('new', 'alice', 'hi bob')
                bob2 ('connected',)
                bob ('kicked',)
                bob2 ('kicked',)
                other platform ('failed', 1502)
                malformed ('failed', 1503)
                expired ('failed', 1501)

                """)
    }
}
