import Foundation
import IMockCommon
import IMockCore
import IMockNet
import IMockServer
import IMockTestSupport
import Testing

/// A live server (virtual clock) whose app `acme#chat` serves OpenIM SDKs: policy 1, its
/// client secret known, REST and gateway under `/openim/acme/chat`.
final class OpenIMServerFixture: Sendable {
    let server: InProcessServer
    let http: HTTPTestClient
    let clientSecret: String

    init(policy: Int = 1) async throws {
        server = try InProcessServer(apps: [.init(key: "acme#chat", registrationMode: .open)], clock: .virtual)
        http = HTTPTestClient(port: server.port)
        clientSecret = try await server.credentials(of: "acme#chat").secret
        let set = try http.request(
            "POST", "/_imock/apps/acme/chat/settings", json: #"{"loginPolicy":{"vendor":"openim","policy":\#(policy)}}"#,
            token: InProcessServer.adminSecret)
        try #require(set.status == 200)
    }

    /// The arguments every interop script takes first: port, admin secret, client secret.
    var scriptArguments: [String] { [String(server.port), InProcessServer.adminSecret, clientSecret] }

    func stop() async { await server.stop() }

    /// `POST /openim/acme/chat<route>` with the `operationID` and `token` headers (nil: left
    /// out); the HTTP status and the JSON body.
    func call(_ route: String, _ json: String, token: String? = nil, operationID: String? = "op-1", app: String = "acme/chat")
        throws -> (status: Int, body: JSONValue)
    {
        var headers = ["Content-Type: application/json"]
        if let operationID { headers.append("operationID: \(operationID)") }
        if let token { headers.append("token: \(token)") }
        let answer = try http.raw("POST", "/openim/\(app)\(route)", headers: headers, body: Array(json.utf8))
        return (answer.head.status, (try? JSONValue.parse(answer.body)) ?? .null)
    }

    /// The error code of a call (0 on success).
    func code(_ route: String, _ json: String, token: String? = nil, operationID: String? = "op-1") throws -> Int64? {
        let answer = try call(route, json, token: token, operationID: operationID)
        #expect(answer.status == 200, "\(route): OpenIM answers 200 even for errors")
        return answer.body["errCode"]?.intValue
    }

    /// The data of a call that must succeed.
    func data(_ route: String, _ json: String, token: String? = nil) throws -> JSONValue {
        let answer = try call(route, json, token: token)
        try #require(answer.body["errCode"]?.intValue == 0, "\(route): \(answer.body.encodedString)")
        return answer.body["data"] ?? .null
    }

    /// An admin token.
    func adminToken() throws -> String {
        try #require(try data("/auth/get_admin_token", #"{"secret":"\#(clientSecret)","userID":"imAdmin"}"#)["token"]?.stringValue)
    }

    /// Registers `users` (admin) and returns a token of the first for `platform`.
    func userToken(_ user: String, platform: Int, admin: String) throws -> String {
        let body = #"{"platformID":\#(platform),"userID":"\#(user)"}"#
        return try #require(try data("/auth/get_user_token", body, token: admin)["token"]?.stringValue)
    }

    /// Moves the virtual clock by `ms`.
    func advance(ms: Int) throws {
        let moved = try http.request("POST", "/_imock/clock/advance", json: #"{"ms":\#(ms)}"#, token: InProcessServer.adminSecret)
        try #require(moved.status == 200)
    }

    /// Whether the PyPI `openim-sdk-core` 0.1.11 is installed (`.ci/run` installs it).
    static let hasPythonClient = Task {
        let check = "import importlib.metadata as m, openim_sdk.ws_client; assert m.version('openim-sdk-core') == '0.1.11'"
        return (try? await ExternalCommand.run("python3", ["-c", check]))?.status == 0
    }

    /// A script next to this file.
    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(name).path
    }
}
