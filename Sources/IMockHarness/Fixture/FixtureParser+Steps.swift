import IMockCore

/// What steps may refer to, collected while parsing in order.
struct StepContext: Sendable {
    var apps: [FixtureApp]
    var devices: [FixtureDevice]
    var tokenNames: Set<String> = []
    var labels: Set<String> = []
    /// The names earlier steps capture (``StepCapture``).
    var capturedNames: Set<String> = []

    var deviceNames: Set<String> { Set(devices.map(\.name)) }

    func device(_ name: String, _ reader: FixtureReader, _ key: String = "device") throws(FixtureError) -> FixtureDevice {
        guard let device = devices.first(where: { $0.name == name }) else {
            throw reader.fail(key, "unknown device \"\(name)\" (devices: \(devices.map(\.name).joined(separator: ", ")))")
        }
        return device
    }

    func app(_ reader: FixtureReader) throws(FixtureError) -> FixtureApp {
        guard let name = try reader.string("app") else { return apps[0] }
        guard let app = apps.first(where: { $0.name == name }) else { throw reader.fail("app", "unknown app \"\(name)\"") }
        return app
    }

    func user(_ name: String, in app: FixtureApp, _ reader: FixtureReader, _ key: String) throws(FixtureError) {
        guard app.user(name) != nil else { throw reader.fail(key, "unknown user \"\(name)\" of app \"\(app.name)\"") }
    }
}

extension FixtureParser {
    static let verbs = ["do", "rest", "control", "network", "advance", "issueToken", "expect"]

    /// The kind named by `verb` (`do`, `control`, `expect`) and the extra keys it allows; an unknown
    /// name is refused at `path.verb`, listing the known ones.
    static func kind(of value: JSONValue, verb: String, in table: [String: [String]], noun: String, at path: String)
        throws(FixtureError) -> (name: String, keys: [String])
    {
        let name = value[verb]?.stringValue ?? ""
        guard let keys = table[name] else {
            throw FixtureError(
                path: "\(path).\(verb)", reason: "unknown \(noun) \"\(name)\" (known: \(table.keys.sorted().joined(separator: ", ")))")
        }
        return (name, keys)
    }

    static func parseStep(_ value: JSONValue, at path: String, context: inout StepContext) throws(FixtureError) -> Step {
        guard let members = value.objectValue else { throw FixtureError(path: path, reason: "must be an object") }
        let present = verbs.filter { verb in members.contains { $0.key == verb } }
        guard present.count == 1 else {
            throw FixtureError(
                path: path, reason: "needs exactly one of \(verbs.map { "\"\($0)\"" }.joined(separator: ", "))"
                    + (present.isEmpty ? "" : " (has \(present.joined(separator: ", ")))"))
        }
        let captures = try parseCaptures(members.first { $0.key == "capture" }?.value, verb: present[0], at: path, context: context)
        let usesCaptures = !(try capturedPlaceholders(in: value, at: path, context: context)).isEmpty
        let before = context
        let value = JSONValue.object(members.filter { $0.key != "capture" })
        let label = members.first { $0.key == "label" }?.value
        if let label, label.stringValue == nil { throw FixtureError(path: "\(path).label", reason: "must be a string") }
        let kind: StepKind
        switch present[0] {
        case "do": kind = .device(try parseDeviceAction(value, at: path, context: context))
        case "rest": kind = .rest(try parseREST(value, at: path, context: context))
        case "control": kind = .control(try parseControl(value, at: path, context: context))
        case "network": kind = .network(try parseNetwork(value, at: path, context: context))
        case "advance":
            let reader = try FixtureReader(value, at: path, allowed: ["advance", "label"])
            guard let ms = try reader.duration("advance") else { throw reader.fail("advance", "is required") }
            kind = .advance(ms: ms)
        case "issueToken":
            let reader = try FixtureReader(value, at: path, allowed: ["issueToken", "user", "ttl", "app", "label"])
            let name = try reader.requiredString("issueToken")
            let app = try context.app(reader)
            let user = try reader.requiredString("user")
            try context.user(user, in: app, reader, "user")
            let ttl = try reader.duration("ttl").map { $0 / 1000 }
            context.tokenNames.insert(name)
            kind = .issueToken(name: name, token: .fresh(user: user, ttlSeconds: ttl, app: app.name))
        default:
            kind = .expect(try parseExpectation(value, at: path, context: context))
        }
        if let text = label?.stringValue {
            guard context.labels.insert(text).inserted, text != "start" else {
                throw FixtureError(path: "\(path).label", reason: "label \"\(text)\" is used twice (or is the reserved \"start\")")
            }
        }
        context.capturedNames.formUnion(captures.map(\.name))
        return Step(
            kind: kind, path: path, label: label?.stringValue, captures: captures,
            template: usesCaptures ? StepTemplate(json: value, context: before) : nil)
    }

    static let actionKeys: [String: [String]] = [
        "init": [], "addDelegate": [], "removeDelegate": [], "restart": [],
        "login": ["user", "token"], "autoLogin": ["user", "token"], "logout": ["unbind"], "renewToken": ["token"],
        "send": ["to", "text"], "ack": ["messageId"], "switchAccount": ["user", "token"], "queryDevices": ["user", "token"],
    ]

    private static func parseDeviceAction(_ value: JSONValue, at path: String, context: StepContext) throws(FixtureError)
        -> DeviceAction
    {
        let (action, extra) = try kind(of: value, verb: "do", in: actionKeys, noun: "action", at: path)
        let reader = try FixtureReader(value, at: path, allowed: ["do", "device", "result", "label"] + extra)
        let device = try context.device(try reader.requiredString("device"), reader)
        let app = context.apps.first { $0.name == device.app }!
        let user = try reader.string("user")
        if let user { try context.user(user, in: app, reader, "user") }
        let token = try parseToken(reader.value("token"), at: reader.at("token"), app: app, context: context)
        let call: DeviceCall
        switch action {
        case "init": call = .initialize
        case "addDelegate": call = .addDelegate
        case "removeDelegate": call = .removeDelegate
        case "restart": call = .restart
        case "login": call = .login(user: user, token: token)
        case "autoLogin": call = .autoLogin(user: user, token: token)
        case "logout": call = .logout(unbind: try reader.bool("unbind") ?? false)
        case "renewToken": call = .renewToken(token)
        case "send":
            let to = try reader.requiredString("to")
            try context.user(to, in: app, reader, "to")
            call = .send(to: to, text: try reader.requiredString("text"))
        case "ack": call = .ack(messageId: try reader.requiredString("messageId"))
        case "queryDevices": call = .queryDevices(user: user, token: token)
        default:
            guard let user else { throw reader.fail("user", "is required: the account to switch to") }
            call = .switchAccount(user: user, token: token)
        }
        let result = try reader.value("result").map { json throws(FixtureError) in try MatcherParser.subset(json, at: reader.at("result")) }
        return DeviceAction(device: device.name, call: call, result: result)
    }

    /// `token`: absent (a fresh token of the user), `{"ttl": "1h"}`, `{"user": "bob"}`,
    /// `{"name": "t2"}` (from `issueToken`), `{"literal": "…"}`, `{"app": true}`.
    static func parseToken(_ value: JSONValue?, at path: String, app: FixtureApp, context: StepContext) throws(FixtureError)
        -> TokenSource
    {
        guard let value else { return .fresh(user: nil, ttlSeconds: nil) }
        let reader = try FixtureReader(value, at: path, allowed: ["ttl", "user", "name", "literal", "app"])
        if let name = try reader.string("name") {
            guard context.tokenNames.contains(name) else { throw reader.fail("name", "no issueToken step named \"\(name)\" before") }
            return .named(name)
        }
        if let literal = try reader.string("literal") { return .literal(literal) }
        if try reader.bool("app") == true { return .appToken }
        let user = try reader.string("user")
        if let user { try context.user(user, in: app, reader, "user") }
        return .fresh(user: user, ttlSeconds: try reader.duration("ttl").map { $0 / 1000 })
    }

    private static func parseREST(_ value: JSONValue, at path: String, context: StepContext) throws(FixtureError) -> RESTCall {
        let reader = try FixtureReader(value, at: path, allowed: ["rest", "api", "app", "auth", "body", "status", "response", "label"])
        let line = try reader.requiredString("rest")
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["GET", "POST", "PUT", "DELETE"].contains(parts[0]), !parts[1].hasPrefix("/") else {
            throw reader.fail("rest", "must be \"METHOD path\" with the path below /{org}/{app}/, e.g. \"POST users\"")
        }
        let api = RESTCall.API(rawValue: try reader.choice("api", RESTCall.API.allCases.map(\.rawValue)) ?? "easemob")!
        let app = try context.app(reader)
        let auth: RESTAuth
        switch reader.value("auth") {
        case nil: auth = .app
        case .string("none")?: auth = .none
        case .string("app")?: auth = .app
        case let token?: auth = .token(try parseToken(token, at: reader.at("auth"), app: app, context: context))
        }
        return RESTCall(
            method: parts[0], path: parts[1], api: api, app: app.name, auth: auth, body: reader.value("body"),
            status: try reader.int("status", in: 100...599).map(Int.init),
            response: try reader.value("response").map { json throws(FixtureError) in try MatcherParser.subset(json, at: reader.at("response")) })
    }

    private static func parseNetwork(_ value: JSONValue, at path: String, context: StepContext) throws(FixtureError) -> NetworkChange {
        let reader = try FixtureReader(value, at: path, allowed: ["network", "device", "for", "label"])
        let kind = NetworkChange.Kind(rawValue: try reader.choice("network", ["cut", "blackhole", "restore"]) ?? "")!
        let device = try context.device(try reader.requiredString("device"), reader)
        let duration = try reader.duration("for")
        if kind == .restore, duration != nil { throw reader.fail("for", "restore takes no duration") }
        if let duration, duration <= 0 { throw reader.fail("for", "must be longer than 0") }
        return NetworkChange(kind: kind, device: device.name, durationMs: duration)
    }
}
