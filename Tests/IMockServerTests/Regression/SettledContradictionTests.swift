@testable import IMockNet
@testable import IMockServer
import IMockTestSupport
import Testing

/// Places where the documents disagreed, settled one way and tested (docs/PROTOCOL.md,
/// docs/CONTROL-API.md, docs/SEED.md, docs/openapi.yaml say the same now).
@Suite("Settled contradictions between the documents")
struct SettledContradictionTests {
    @Test("the control API kicks with any code: OpenIM's 2002 reaches the device and closes with 4999")
    func kickWithAnyCode() async throws {
        let fixture = try SessionFixture()
        let device = try await fixture.device("oim", token: try fixture.userToken("oim"), uuid: "o")
        let kick = try fixture.control("POST", "/_imock/apps/acme/chat/kick", json: #"{"user":"oim","code":2002}"#)
        #expect(kick.status == 200, "\(kick)")
        #expect((await device.next(op: "kicked"))["code"]?.int == 2002)
        #expect((await device.next(op: "<closed>"))["code"]?.int == 4999)
        await fixture.stop()
    }

    @Test("keep-current-device, single device: an auto-login from another device than the last is refused with 220, even with no session live")
    func keepCurrentDeviceSingleDevice() async throws {
        let fixture = try SessionFixture()
        let policy = #"{"loginPolicy":{"vendor":"easemob","mode":"singleDevice","keepCurrentDevice":true}}"#
        #expect(try fixture.control("POST", "/_imock/apps/acme/chat/settings", json: policy).status == 200)
        let token = try fixture.userToken("kcd")
        let first = try await fixture.device("kcd", token: token, uuid: "one")
        first.send(#"{"op":"logout","id":"o"}"#)
        #expect((await first.next(op: "<closed>"))["code"]?.int == 1000)
        let other = try await ProtocolClient.connect(loop: fixture.clientLoop, port: fixture.server.port)
        other.login(app: SessionFixture.app, user: "kcd", token: token, uuid: "two", autoLogin: true)
        let refused = await other.next(op: "login.error")
        #expect(refused["code"]?.int == 220, "\(refused)")
        #expect(refused["by"] == nil, "a refusal carries no `by`")
        // The last device itself may auto-login.
        _ = try await fixture.device("kcd", token: token, uuid: "one", autoLogin: true)
        await fixture.stop()
    }

    @Test("a REST body without Content-Type is read as JSON; another type gets 415")
    func contentType() async throws {
        let fixture = try SessionFixture()
        let body = Array(#"{"username":"ct","password":"pw"}"#.utf8)
        #expect(try fixture.http.raw("POST", "/acme/chat/users", body: body).head.status == 200)
        let typed = try fixture.http.raw("POST", "/acme/chat/users", headers: ["Content-Type: text/plain"], body: body)
        #expect(typed.head.status == 415)
        await fixture.stop()
    }

    @Test("a binary message on /ws is out of protocol: close 1003, journalled")
    func binaryMessage() async throws {
        let fixture = try SessionFixture()
        let device = try await fixture.device("bin", token: try fixture.userToken("bin"), uuid: "b")
        device.socket.send(binary: [1, 2, 3])
        #expect((await device.next(op: "<closed>"))["code"]?.int == 1003)
        var events: [String] = []
        for _ in 0..<200 where !events.contains("closed:1003") {
            events = try fixture.journalEvents()
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(events.contains("closed:1003"), "\(events)")
        await fixture.stop()
    }

    @Test("E9: a login of another account on a logged-in connection is refused with 200 (not 218)")
    func secondAccountOnOneConnection() async throws {
        let fixture = try SessionFixture()
        let device = try await fixture.device("first", token: try fixture.userToken("first"), uuid: "f")
        device.login(app: SessionFixture.app, user: "second", token: try fixture.userToken("second"), uuid: "f", id: "again")
        let reply = await device.next(op: "error")
        #expect(reply["code"]?.int == 200, "\(reply)")
        device.send(#"{"op":"devices","id":"d"}"#)
        #expect((await device.next(op: "devices.ok"))["devices"]?.array?.count == 1, "the first session stays")
        await fixture.stop()
    }
}

/// `GET /_imock/health` answers every client (container health checks come from outside); every
/// other control path refuses a non-loopback client with 403 before anything else.
@Suite("Health is public, the rest of the control API loopback-only")
struct HealthAccessTests {
    @Test(arguments: ["192.0.2.7", "2001:db8::7"])
    func nonLoopbackClient(host: String) async throws {
        let server = try InProcessServer()
        let remote = HTTPRequestContext(
            connectionID: 1, peer: try SocketAddress.resolve(host: host, port: 40000), isSecure: false)
        let statuses = try await server.onLoop { server -> [Int] in
            ["/_imock/health", "/_imock/clock", "/_imock/nothing"].map { path in
                guard case .respond(let answer) = server.respond(to: HTTPRequest(method: "GET", target: path), context: remote)
                else { return -1 }
                return answer.status
            }
        }
        #expect(statuses == [200, 403, 403])
        await server.stop()
    }
}
