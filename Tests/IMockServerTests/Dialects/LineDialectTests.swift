import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport
import Testing

/// A dialect written in a test file logs in, is kicked by the control API and expires on the
/// virtual clock through the real engine — registered with one line (`dialects:`).
@Suite("A test-only dialect through the real engine")
struct LineDialectTests {
    static func fixture() throws -> SessionFixture {
        try SessionFixture(clock: .virtual) { _ in } dialects: {
            DialectCatalog.served + [DialectRoute(path: LineDialect.path) { LineDialect() }]
        }
    }

    func connect(_ fixture: SessionFixture, query: String = "") async throws -> TestWebSocket {
        try await TestWebSocket.connect(loop: fixture.clientLoop, port: fixture.server.port, path: LineDialect.path + query)
    }

    @Test("login with a line, a control-API kick: BYE then close 3217, journalled")
    func loginAndKick() async throws {
        let fixture = try Self.fixture()
        let token = try fixture.userToken("liner")
        let socket = try await connect(fixture)
        socket.send(text: "LOGIN acme#chat liner \(token) box")
        #expect(await socket.next() == .text("WELCOME linux_box"))
        socket.send(text: "PING")
        guard case .text(let pong)? = await socket.next() else { Issue.record("no pong"); return }
        #expect(pong.hasPrefix("PONG "))
        let kick = try fixture.control("POST", "/_imock/apps/acme/chat/kick", json: #"{"user":"liner","code":217}"#)
        #expect(kick.status == 200, "\(kick)")
        #expect(await socket.next() == .text("BYE kicked 217"))
        #expect(await socket.next() == .closed(code: 3217, reason: "kicked by the control API"))
        #expect(try fixture.journalEvents() == ["login.ok", "kicked:217", "closed:3217"])
        await fixture.stop()
    }

    @Test("the token's warning and expiry on the virtual clock")
    func expiry() async throws {
        let fixture = try Self.fixture()
        let token = try fixture.userToken("short", ttl: 100)
        let socket = try await connect(fixture)
        socket.send(text: "LOGIN acme#chat short \(token) box")
        #expect(await socket.next() == .text("WELCOME linux_box"))
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":80000}"#).status == 200)
        guard case .text(let warning)? = await socket.next() else { Issue.record("no warning"); return }
        #expect(warning.hasPrefix("EXPIRING "))
        #expect(try fixture.control("POST", "/_imock/clock/advance", json: #"{"ms":20000}"#).status == 200)
        #expect(await socket.next() == .text("BYE expired"))
        #expect(await socket.next() == .closed(code: 3108, reason: "the token has expired"))
        await fixture.stop()
    }

    @Test("a login during the upgrade: accepted, the connection opens logged in; refused, HTTP 403 and no upgrade")
    func upgradeLogin() async throws {
        let fixture = try Self.fixture()
        let token = try fixture.userToken("upper")
        let socket = try await connect(fixture, query: "?login=acme%23chat,upper,\(token),box")
        #expect(await socket.next() == .text("WELCOME linux_box"))
        let sessions = try fixture.control("GET", "/_imock/apps/acme/chat/sessions").body["sessions"]?.array ?? []
        #expect(sessions.map { $0["user"]?.string } == ["upper"])
        let refused = try fixture.http.raw(
            "GET", LineDialect.path + "?login=acme%23chat,upper,bogus,box",
            headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"])
        #expect(refused.head.status == 403)
        #expect(String(decoding: refused.body, as: UTF8.self) == "refused: invalid token")
        #expect(try fixture.journalEvents() == ["login.ok", "login.error:104"])
        await fixture.stop()
    }
}
