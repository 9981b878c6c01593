import IMockCore
import IMockNet
import Testing

@testable import IMockServer

/// A REST fixture: apps `acme#chat` (authorized, client `cid`/`secret`, user `alice`/`pw`),
/// `acme#open` (open registration) and `acme#other`; an app token for `acme#chat`.
struct RESTFixture {
    var state: Domain
    var nowMs: Int64 = 1_700_000_000_000
    var presence: any PresenceView = NoPresence()
    let chat: AppKey
    let appToken: String
    let aliceToken: String

    init(rateLimit: Int? = nil) throws {
        var directory = Directory(settings: DirectorySettings(passwordIterations: 1))
        chat = try AppKey(org: "acme", app: "chat")
        try directory.createApp(
            chat, settings: AppSettings(restRateLimitPerSecond: rateLimit), clientID: "cid", clientSecret: "secret")
        try directory.createApp(AppKey(org: "acme", app: "open"), settings: AppSettings(registrationMode: .open))
        try directory.createApp(AppKey(org: "acme", app: "other"))
        try directory.registerUser(NewUser(username: "alice", password: "pw"), in: chat, nowMs: nowMs)
        appToken = try directory.issueAppToken(
            in: chat, clientID: "cid", clientSecret: "secret", ttlSeconds: 0, nowMs: nowMs
        ).token
        aliceToken = try directory.issueUserToken(
            in: chat, username: "alice", password: "pw", ttlSeconds: 0, nowMs: nowMs
        ).token.token
        state = Domain(directory: directory)
    }

    var app: App { state.directory.apps[chat]! }

    /// Sends a request; `token` nil sends no Authorization header.
    mutating func send(
        _ method: String, _ target: String, body: String? = nil, token: String? = nil,
        contentType: String? = "application/json", passwords: PasswordWork = .inline
    ) -> RESTOutcome {
        var headers = HTTPHeaders([("Host", "imock.test")])
        if let token { headers.add("Authorization", "Bearer \(token)") }
        if body != nil, let contentType { headers.add("Content-Type", contentType) }
        let http = HTTPRequest(method: method, target: target, headers: headers, body: Array((body ?? "").utf8))
        return RESTAPI.handle(http, domain: &state, nowMs: nowMs, presence: presence, passwords: passwords)
    }
}

extension RESTOutcome {
    var json: JSONValue { (try? JSONValue.parse(response.body)) ?? .null }
    var bodyText: String { String(decoding: response.body, as: UTF8.self) }
    var errorName: String? { json["error"]?.stringValue }
}

/// Presence that reports fixed sessions.
struct FixedPresence: PresenceView {
    var sessions: [String: [DeviceEntry]]
    func sessions(of username: String, in app: AppKey) -> [DeviceEntry] { sessions[username] ?? [] }
}

/// The exact error body for `error` at the fixture time.
func errorBody(_ status: Int, _ error: String, _ exception: String, _ description: String, nowMs: Int64) -> String {
    RESTError(status: status, error: error, exception: exception, description: description).body(nowMs: nowMs)
        .encodedString
}
