import IMockNet
import IMockServer
import IMockTestSupport
import Testing

/// HTTP and WebSocket details found by testing from outside: one head limit (no 414), fresh
/// header deadlines on keep-alive connections, JSON error bodies on `/ws`, refused repeated
/// JSON keys, access checked before an unknown control path is looked up, and no seeded
/// app's client secret at info level.
@Suite("Transport edges found from outside")
struct TransportEdgeTests {
    @Test("a 9 KiB request line within the 16 KiB head limit is served; past the limit it is 431, never 414")
    func oneHeadLimit() async throws {
        let server = try InProcessServer()
        let http = HTTPTestClient(port: server.port)
        let query = String(repeating: "q", count: 9 * 1024)
        #expect(try http.raw("GET", "/_imock/health?x=\(query)").head.status == 200)
        let tooLong = String(repeating: "q", count: 17 * 1024)
        #expect(try http.raw("GET", "/_imock/health?x=\(tooLong)").head.status == 431)
        await server.stop()
    }

    @Test("keep-alive: a head that starts in the same read as the previous request's end gets a fresh header deadline")
    func keepAliveHeaderDeadline() async throws {
        // Real time on purpose: header deadlines are loop timers. With a 3 s timeout, the second
        // head starts at 2 s and ends at 4 s: the old deadline (from the first head, 3 s) passes
        // before its end, the fresh one (2 s + 3 s) does not. A loaded machine that oversleeps
        // out of those windows makes the attempt inconclusive, and it is tried again (up to ten
        // times: the whole suite's heaviest tests may run alongside).
        let server = try InProcessServer { $0.headerTimeout = .seconds(3) }
        var conclusive = false
        for _ in 0..<10 where !conclusive {
            let clock = ContinuousClock()
            let start = clock.now
            let socket = try RawSocket(port: server.port)
            try socket.send("GET /_imock/health HTTP/1.1\r\n")
            try await Task.sleep(for: .seconds(2))
            let second = clock.now - start
            try socket.send("Host: x\r\n\r\nGET /_imock/health HTTP/1.1\r\n")
            let first = try socket.receiveResponse().head.status
            try await Task.sleep(until: start + .seconds(4))
            let third = clock.now - start
            guard second < .milliseconds(2700), third > .milliseconds(3300), third < .milliseconds(4700) else { continue }
            conclusive = true
            #expect(first == 200)
            try socket.send("Host: x\r\n\r\n")
            #expect(try socket.receiveResponse().head.status == 200, "the second request is served, not 408")
        }
        #expect(conclusive, "the machine was too loaded to keep the schedule ten times")
        await server.stop()
    }

    @Test("a refused WebSocket upgrade on /ws answers the JSON error envelope")
    func handshakeErrorIsJSON() async throws {
        let server = try InProcessServer()
        let http = HTTPTestClient(port: server.port)
        let response = try http.raw(
            "GET", "/ws", headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13"])
        #expect(response.head.status == 400)
        #expect(response.head.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains(#""error":"websocket_handshake_failed""#) && text.contains(#""error_description":"#), "\(text)")
        let version = try http.raw(
            "GET", "/ws", headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 8"])
        #expect(version.head.status == 426)
        #expect(version.head.headers["Sec-WebSocket-Version"] == "13")
        await server.stop()
    }

    @Test("a JSON object that repeats a key is refused everywhere: REST 400, control 400, frame 110")
    func repeatedKeys() async throws {
        let fixture = try SessionFixture()
        let rest = try fixture.http.request(
            "POST", "/acme/chat/users", json: #"{"username":"dup","password":"a","password":"b"}"#)
        #expect(rest.status == 400)
        #expect(rest.body["error_description"]?.string?.contains("password") == true, "\(rest)")
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":1,"ms":2}"#).status == 400)
        let client = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
        client.send(#"{"op":"ping","id":"a","id":"b"}"#)
        let reply = await client.next(op: "error")
        #expect(reply["code"]?.int == 110, "\(reply)")
        #expect(reply["message"]?.string?.contains("duplicate key") == true, "\(reply)")
        await fixture.stop()
    }

    @Test(
        "an unknown /_imock path checks access first: 401 without the secret, 404 with it",
        arguments: [("none", 401), ("wrong", 401), ("ok", 404)])
    func unknownControlPath(secret: String, status: Int) async throws {
        let fixture = try SessionFixture()
        #expect(try fixture.control("GET", "/_imock/nothing-here", secret: secret).status == status)
        #expect(try fixture.control("DELETE", "/_imock/clock", secret: secret).status == (status == 404 ? 405 : status))
        await fixture.stop()
    }

    @Test(
        "start-up logs show the demo app's client secret, never a seeded or --app app's, nor a given admin secret",
        arguments: ["text", "json"])
    func secretsAtStartUp(format: String) async throws {
        let named = try await IMockProcess.start(["--app", "acme#chat:open", "--admin-secret", "given-secret", "--log-format", format])
        let namedLog = named.logText
        _ = named.terminate()
        #expect(namedLog.contains("acme#chat"), "\(namedLog)")
        #expect(!namedLog.contains("client_secret") && !namedLog.contains("clientSecret"), "\(namedLog)")
        #expect(!namedLog.contains("given-secret"), "\(namedLog)")
        let demo = try await IMockProcess.start(["--admin-secret", "given-secret", "--log-format", format])
        let demoLog = demo.logText
        _ = demo.terminate()
        #expect(
            demoLog.contains(format == "text" ? "client_secret YXA6" : #""clientSecret":"YXA6"#),
            "the first-run demo app still shows its secret: \(demoLog)")
    }
}
