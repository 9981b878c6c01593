import IMockCore

extension FixtureParser {
    static let controlKeys: [String: [String]] = [
        "kick": ["user", "device", "code", "reason", "byDeviceName", "byExtension"],
        "expireToken": ["user"], "revokeTokens": ["user"], "settings": ["settings"],
        "fault": ["kind", "user", "device", "fields", "when"], "clearFaults": [], "tokens": ["user"], "sessions": [],
    ]

    static func parseControl(_ value: JSONValue, at path: String, context: StepContext) throws(FixtureError) -> ControlCall {
        let (action, extra) = try kind(of: value, verb: "control", in: controlKeys, noun: "control call", at: path)
        let reader = try FixtureReader(value, at: path, allowed: ["control", "app", "status", "response", "label"] + extra)
        let app = try context.app(reader)
        func user() throws(FixtureError) -> String {
            let name = try reader.requiredString("user")
            try context.user(name, in: app, reader, "user")
            return name
        }
        func device() throws(FixtureError) -> String? {
            guard let name = try reader.string("device") else { return nil }
            return try context.device(name, reader).name
        }
        let parsed: ControlAction
        switch action {
        case "kick":
            guard let code = try reader.int("code") else { throw reader.fail("code", "is required") }
            parsed = .kick(
                user: try user(), device: try device(), code: Int(code), reason: try reader.string("reason"),
                byDeviceName: try reader.string("byDeviceName"), byExtension: try reader.string("byExtension"))
        case "expireToken": parsed = .expireToken(user: try user())
        case "revokeTokens": parsed = .revokeTokens(user: try user())
        case "settings":
            guard let settings = reader.value("settings"), settings.objectValue != nil else {
                throw reader.fail("settings", "must be an object of app settings")
            }
            parsed = .settings(settings)
        case "fault":
            let kinds = FaultKind.names
            let kind = try reader.choice("kind", kinds) ?? ""
            guard !kind.isEmpty else { throw reader.fail("kind", "is required") }
            let target = try reader.has("user") ? user() : nil
            let device = try device()
            var fields: [(key: String, value: JSONValue)] = []
            if let value = reader.value("fields") {
                guard let members = value.objectValue else { throw reader.fail("fields", "must be an object") }
                fields = members
            }
            parsed = .fault(kind: kind, user: target, device: device, fields: fields)
        case "tokens": parsed = .tokens(user: try reader.has("user") ? user() : nil)
        case "sessions": parsed = .sessions
        default:
            parsed = .clearFaults
        }
        let when = try reader.value("when").map { json throws(FixtureError) in
            try MatcherParser.pattern(json, at: reader.at("when"), device: nil, known: context.deviceNames)
        }
        return ControlCall(
            action: parsed, app: app.name, status: try reader.int("status", in: 100...599).map(Int.init),
            response: try reader.value("response").map { json throws(FixtureError) in try MatcherParser.subset(json, at: reader.at("response")) },
            when: when)
    }
}
