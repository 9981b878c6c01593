import IMockCore

/// The harness's SDK calls as a recording keeps them (`{"in": "sdk"}`, docs/RECORD.md § SDK
/// calls): each in the words of a fixture's step, so that an export replays it as written —
/// a call the client refuses by itself never reaches the server, but is replayed all the same.
enum RecordedCall {
    /// `{"do": "login", "user": "bob", "token": {"ttl": "1h"}}` (without `device`); nil for an
    /// ack, whose message id is the run's own. A token named but not among `issued` (issued in
    /// another app) becomes a literal the app refuses.
    static func json(_ call: DeviceCall, issued: Set<String>) -> JSONValue? {
        func with(_ verb: String, _ members: [(key: String, value: JSONValue)]) -> JSONValue { .object([("do", .string(verb))] + members) }
        func account(_ user: String?, _ token: TokenSource) -> [(key: String, value: JSONValue)] {
            (user.map { [("user", .string($0))] } ?? []) + (json(token, issued: issued).map { [("token", $0)] } ?? [])
        }
        switch call {
        case .initialize: return with("init", [])
        case .addDelegate: return with("addDelegate", [])
        case .removeDelegate: return with("removeDelegate", [])
        case .restart: return with("restart", [])
        case .login(let user, let token): return with("login", account(user, token))
        case .autoLogin(let user, let token): return with("autoLogin", account(user, token))
        case .switchAccount(let user, let token): return with("switchAccount", account(user, token))
        case .queryDevices(let user, let token): return with("queryDevices", account(user, token))
        case .logout(let unbind): return with("logout", [("unbind", .bool(unbind))])
        case .renewToken(let token): return with("renewToken", json(token, issued: issued).map { [("token", $0)] } ?? [])
        case .send(let to, let text): return with("send", [("to", .string(to)), ("text", .string(text))])
        case .ack: return nil
        }
    }

    /// A token source as a step's `token`; nil for a fresh token of the device's user.
    static func json(_ token: TokenSource, issued: Set<String>) -> JSONValue? {
        switch token {
        case .fresh(let user, let ttlSeconds, _):
            let members: [(key: String, value: JSONValue)] =
                (user.map { [("user", .string($0))] } ?? []) + (ttlSeconds.map { [("ttl", .string(DurationText.format($0 * 1000)))] } ?? [])
            return members.isEmpty ? nil : .object(members)
        case .named(let name): return issued.contains(name) ? ["name": .string(name)] : ["literal": "recorded-token-of-another-app"]
        case .literal(let text): return ["literal": .string(text)]
        case .appToken: return ["app": true]
        }
    }
}
