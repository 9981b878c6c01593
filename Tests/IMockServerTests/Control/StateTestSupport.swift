import IMockNet
import IMockTestSupport

/// Helpers for the state, app-switch and token tests of the control API.
extension SessionFixture {
    /// The second app the isolation tests add with `POST /_imock/seed`.
    static let otherApp = "acme#other"

    /// A control call whose raw body bytes are returned, for byte-for-byte comparisons.
    func controlBytes(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, body: [UInt8]) {
        let socket = try RawSocket(port: server.port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        head += "Authorization: Bearer \(InProcessServer.adminSecret)\r\n"
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        try socket.send(Array((head + "\r\n").utf8) + body)
        let response = try socket.receiveResponse()
        return (response.head.status, response.body)
    }

    /// `GET /_imock/export` as bytes.
    func exportAll() throws -> [UInt8] { try controlBytes("GET", "/_imock/export").body }

    /// `GET /_imock/apps/{org}/{app}/export` of `acme#chat` (or `path` = `acme/other`) as bytes.
    func export(_ path: String = "acme/chat") throws -> [UInt8] {
        try controlBytes("GET", "/_imock/apps/\(path)/export").body
    }

    /// Adds `acme#other` (open registration, no users) through the control API.
    func addOtherApp() throws {
        let added = try control(
            "POST", "/_imock/seed",
            json: #"{"version":1,"apps":[{"appKey":"acme#other","registrationMode":"open"}]}"#)
        guard added.status == 200 else { throw FixtureFailure(description: "seed acme#other: \(added)") }
    }

    /// Registers `user` (password "pw") in `acme#other` and returns a one-hour token.
    func otherUserToken(_ user: String) throws -> String {
        let created = try http.request("POST", "/acme/other/users", json: #"{"username":"\#(user)","password":"pw"}"#)
        guard created.status == 200 else { throw FixtureFailure(description: "register \(user): \(created)") }
        let token = try http.request(
            "POST", "/acme/other/token", json: #"{"grant_type":"password","username":"\#(user)","password":"pw","ttl":3600}"#)
        return token.body["access_token"]?.string ?? ""
    }

    /// Opens a connection and sends a login; returns the client and the login reply
    /// (`login.ok`, `login.error`, or the close marker).
    func attemptLogin(
        _ user: String, token: String, uuid: String, app: String = SessionFixture.app
    ) async throws -> (client: ProtocolClient, reply: [String: JSONAny]) {
        let client = try await ProtocolClient.connect(loop: clientLoop, port: server.port)
        client.login(app: app, user: user, token: token, uuid: uuid)
        while true {
            let frame = await client.next()
            let op = frame["op"]?.string ?? ""
            if op == "login.ok" || op == "login.error" || op.hasPrefix("<") { return (client, frame) }
        }
    }
}
