import IMockCommon
import IMockCore

extension FixtureBuilder {
    /// The fixture step of an inbound event; nil for what a replay does by itself (pings, the
    /// SDK's automatic logins, acks, device listings over the connection), for devices left
    /// out and for read-only control calls.
    mutating func step(for event: JSONValue, verb: String, at index: Int) throws(RecordingError) -> JSONValue? {
        let path = "events[\(index)]"
        switch verb {
        case "rest":
            guard !Self.mintsToken(event) else {
                mintedTokens += 1
                return nil
            }
            if event["method"]?.stringValue == "POST", event["path"]?.stringValue == "users",
                let user = event["body"]?["username"]?.stringValue?.lowercased(), addedUsers.contains(user)
            {
                notes.append("\(path): \(user) is in the fixture's app from the start (a device logs in as \(user)): the registration is left out")
                return nil
            }
            return try rest(event, at: path)
        case "control": return control(event)
        case "sdk": return call(event)
        default: break
        }
        guard let device = event["connection"]?.intValue.flatMap({ connections[$0] }), !driven.contains(device) else { return nil }
        let own = devices.first { $0.name == device }!.user
        switch verb {
        case "login":
            guard !automaticLogins.contains(index) else { return nil }
            var members: [(key: String, value: JSONValue)] = [("do", "login"), ("device", .string(device))]
            let user = event["user"]?.stringValue?.lowercased() ?? own
            if user != own { members.append(("user", .string(user))) }
            if let token = token(event["credential"], user: user) { members.append(("token", token)) }
            return .object(members)
        case "logout":
            return .object([("do", "logout"), ("device", .string(device)), ("unbind", .bool(event["unbind"]?.boolValue ?? false))])
        case "renewToken":
            var members: [(key: String, value: JSONValue)] = [("do", "renewToken"), ("device", .string(device))]
            if let token = token(event["credential"], user: own) { members.append(("token", token)) }
            return .object(members)
        case "send":
            guard let to = event["to"]?.stringValue, let text = event["text"]?.stringValue else {
                throw RecordingError(path: path, reason: "a send needs to and text")
            }
            return .object([("do", "send"), ("device", .string(device)), ("to", .string(to)), ("text", .string(text))])
        default:
            return nil
        }
    }

    /// A harness's SDK call as the step it was (`{"do": …, "device": …}`), or the token it
    /// issued for later calls (`{"issueToken": …}`).
    func call(_ event: JSONValue) -> JSONValue? {
        guard let call = event["call"]?.objectValue else { return nil }
        guard call.contains(where: { $0.key == "do" }) else { return .object(call) }
        let instance = Int(event["instance"]?.intValue ?? 1)
        guard let device = device(ofKey: event["device"].map(canonical), instance: instance) else { return nil }
        return .object(call.prefix(1) + [("device", .string(device))] + call.dropFirst())
    }

    /// A token request of an app server (`client_credentials`, `inherit`): the replay mints
    /// its tokens itself, so these are left out.
    static func mintsToken(_ event: JSONValue) -> Bool {
        guard event["method"]?.stringValue == "POST", event["path"]?.stringValue == "token", event["api"]?.stringValue != "openim"
        else { return false }
        return ["client_credentials", "inherit"].contains(event["body"]?["grant_type"]?.stringValue ?? "")
    }

    /// The app's token lifetime at the start: a token of another lifetime names its `ttl`.
    var defaultTokenTTLSeconds: Int64? { recording.seedApp["defaultTokenTTLSeconds"]?.intValue }

    /// A token source for a recorded credential: a fresh token of the same kind.
    func token(_ credential: JSONValue?, user: String) -> JSONValue? {
        switch credential?["kind"]?.stringValue {
        case "user":
            let subject = credential?["user"]?.stringValue?.lowercased() ?? user
            var members: [(key: String, value: JSONValue)] = subject == user ? [] : [("user", .string(subject))]
            if let ttl = credential?["ttlSeconds"]?.intValue, ttl != defaultTokenTTLSeconds {
                members.append(("ttl", .string(DurationText.format(ttl * 1000))))
            }
            return members.isEmpty ? nil : .object(members)
        case "app": return ["app": true]
        case "refused", "none": return ["literal": "recorded-refused-token"]
        default: return nil
        }
    }

    /// A REST call: its path and query, the kind of credential, its body with the replay's
    /// passwords in place of the redacted ones, and the status it got.
    mutating func rest(_ event: JSONValue, at path: String) throws(RecordingError) -> JSONValue {
        guard let method = event["method"]?.stringValue, let target = event["path"]?.stringValue, !target.isEmpty else {
            throw RecordingError(path: path, reason: "a REST call needs method and path")
        }
        let query = (event["query"]?.objectValue ?? []).compactMap { member in
            member.value.stringValue.map { "\(member.key)=\(PercentEncoding.encode($0))" }
        }
        var members: [(key: String, value: JSONValue)] = [
            ("rest", .string("\(method) \(target)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))))
        ]
        if event["api"]?.stringValue == "openim" { members.append(("api", "openim")) }
        switch event["credential"]?["kind"]?.stringValue {
        case "none": members.append(("auth", "none"))
        case "user": members.append(("auth", .object([("user", .string(event["credential"]?["user"]?.stringValue ?? ""))])))
        case "refused": members.append(("auth", .object([("literal", "recorded-refused-token")])))
        default: break
        }
        let status = event["status"]?.intValue
        if let body = event["body"] {
            members.append(("body", passwords(in: body, user: userOf(target, body), succeeded: status.map { $0 < 300 } ?? true)))
        }
        if event["bodyOmittedBytes"] != nil { notes.append("\(path): the body was too large to record; the step sends none") }
        if let status { members.append(("status", .int(status))) }
        return .object(members)
    }

    /// The user a REST call is about: its body's `username`, else the path's `users/{name}`.
    func userOf(_ target: String, _ body: JSONValue) -> String? {
        if let name = body["username"]?.stringValue { return name.lowercased() }
        let parts = target.split(separator: "/")
        guard let index = parts.firstIndex(of: "users"), index + 1 < parts.count else { return nil }
        return parts[index + 1].lowercased()
    }

    /// Redacted passwords become the replay's: `<user>-password` (the fixture's default) when
    /// the call succeeded, a wrong one when it was refused.
    func passwords(in body: JSONValue, user: String?, succeeded: Bool) -> JSONValue {
        switch body {
        case .object(let members):
            return .object(members.map { key, value in
                guard value.stringValue == RecordedEvent.redacted else { return (key, passwords(in: value, user: user, succeeded: succeeded)) }
                let name = user ?? "user"
                return (key, .string(succeeded ? "\(name)-password" : "wrong-password"))
            })
        case .array(let items): return .array(items.map { passwords(in: $0, user: user, succeeded: succeeded) })
        default: return body
        }
    }

    /// A control call as a fixture's `control` step; nil (with a note) for the clock, whose
    /// moves are the recorded times, and for calls fixtures have no step for.
    mutating func control(_ event: JSONValue) -> JSONValue? {
        let method = event["method"]?.stringValue ?? ""
        let parts = (event["path"]?.stringValue ?? "").split(separator: "/").map(String.init)
        let body = event["body"] ?? [:]
        var members: [(key: String, value: JSONValue)] = []
        func copy(_ keys: [String]) { for key in keys { if let value = body[key], !value.isNull { members.append((key, value)) } } }
        if parts.first == "clock" { return nil }
        if parts.count == 4, parts[0] == "apps", method == "POST" {
            switch parts[3] {
            case "kick":
                members = [("control", "kick")]
                copy(["user"])
                if let device = device(ofResource: body["resource"]) { members.append(("device", .string(device))) }
                copy(["code", "reason", "byDeviceName", "byExtension"])
            case "settings":
                members = [("control", "settings"), ("settings", body)]
            default: break
            }
        } else if parts.count == 5, parts[0] == "apps", parts[3] == "tokens", method == "POST", ["expire", "revoke"].contains(parts[4]) {
            members = [("control", parts[4] == "expire" ? "expireToken" : "revokeTokens")]
            copy(["user"])
        } else if parts == ["faults"], method == "POST" {
            members = [("control", "fault")]
            copy(["kind", "user"])
            if let device = device(ofResource: body["resource"]) { members.append(("device", .string(device))) }
            let fields = (body.objectValue ?? []).filter { !["app", "kind", "user", "resource", "connection"].contains($0.key) }
            if !fields.isEmpty { members.append(("fields", .object(fields))) }
        } else if parts.first == "faults", parts.count <= 2, method == "DELETE" {
            members = [("control", "clearFaults")]
        }
        guard !members.isEmpty else {
            notes.append("left out the control call \(method) /_imock/\(parts.joined(separator: "/")): fixtures have no step for it")
            return nil
        }
        if let status = event["status"]?.intValue, status != 200 { members.append(("status", .int(status))) }
        return .object(members)
    }
}
