import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport

/// A live server with one open-registration app, REST helpers and protocol clients.
final class SessionFixture: Sendable {
    static let app = "acme#chat"
    let server: InProcessServer
    let http: HTTPTestClient
    let clientLoop: EventLoop

    init(
        clock: Timeline.Mode = .system, sessionIdleTimeout: Duration = PatientTimeouts.sessionIdle,
        configure: (inout ServerConfiguration) -> Void = { _ in }, dialects: () -> [DialectRoute] = { DialectCatalog.served },
        dataDirectory: String? = nil
    ) throws {
        server = try InProcessServer(
            apps: [.init(key: SessionFixture.app, registrationMode: .open)], clock: clock,
            sessionIdleTimeout: sessionIdleTimeout, configure: configure, dialects: dialects(), dataDirectory: dataDirectory)
        http = HTTPTestClient(port: server.port)
        clientLoop = try EventLoop()
        clientLoop.start()
    }

    /// Registers `user` (password "pw") and returns a user token with `ttl` seconds.
    func userToken(_ user: String, ttl: Int = 3600, register: Bool = true) throws -> String {
        try http.userToken(appPath: "/acme/chat", user: user, ttl: ttl, register: register)
    }

    /// A control-API call as a bad-input table describes it: `secret` is `"none"` (no
    /// Authorization header), `"wrong"` (a wrong secret) or anything else (the admin secret).
    func control(
        _ method: String, _ path: String, json: String? = nil, secret: String
    ) throws -> (status: Int, body: [String: JSONAny]) {
        let token: String? = switch secret {
        case "none": nil
        case "wrong": "not-the-secret"
        default: InProcessServer.adminSecret
        }
        return try http.request(method, path, json: json, token: token)
    }

    /// A control-API call with the admin secret.
    func control(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, body: [String: JSONAny]) {
        try http.request(method, path, json: json, token: InProcessServer.adminSecret)
    }

    /// An app token (client_credentials).
    func appToken() async throws -> String {
        let (id, secret) = try await server.credentials(of: SessionFixture.app)
        let token = try http.request(
            "POST", "/acme/chat/token",
            json: #"{"grant_type":"client_credentials","client_id":"\#(id)","client_secret":"\#(secret)"}"#)
        return token.body["access_token"]?.string ?? ""
    }

    /// A connected device that logged in and got `login.ok`.
    func device(
        _ user: String, token: String, os: String = "ios", uuid: String, name: String = "device",
        extensionInfo: String = "", autoLogin: Bool = false
    ) async throws -> ProtocolClient {
        let client = try await ProtocolClient.connect(loop: clientLoop, port: server.port)
        client.login(
            app: SessionFixture.app, user: user, token: token, os: os, uuid: uuid, name: name,
            extensionInfo: extensionInfo, autoLogin: autoLogin)
        let reply = await client.next(op: "login.ok")
        guard reply["op"]?.string == "login.ok" else { throw FixtureFailure(description: "login of \(user)/\(uuid) failed: \(reply)") }
        return client
    }

    /// The journal entries of the fixture's app (`GET /_imock/journal?app=…`).
    func journal() throws -> [JSONAny] {
        try control("GET", "/_imock/journal?app=acme%23chat").body["entries"]?.array ?? []
    }

    /// The close codes and kick codes the journal recorded, in order: `closed:4206`, `kicked:206`.
    func journalEvents() throws -> [String] {
        try journal().compactMap { entry -> String? in
            guard let event = entry["event"] else { return nil }
            if event["type"]?.string == "closed" { return "closed:\(event["code"]?.int ?? -1)" }
            guard let frame = event["frame"], let op = frame["op"]?.string else { return nil }
            return frame["code"]?.int.map { "\(op):\($0)" } ?? op
        }
    }

    func stop() async {
        clientLoop.stop()
        await server.stop()
    }
}
