import IMockCore

extension FixtureParser {
    static let expectationKeys: [String: [String]] = [
        "sequence": ["device", "callbacks", "gaps", "complete"],
        "unordered": ["callbacks"], "order": ["callbacks"], "absent": ["callbacks", "for"],
        "state": ["device", "loggedIn", "connected", "currentUser", "loginStatus", "devices"],
        "sent": ["device", "frames"],
    ]

    static func parseExpectation(_ value: JSONValue, at path: String, context: StepContext) throws(FixtureError) -> Expectation {
        let (kindName, extra) = try kind(of: value, verb: "expect", in: expectationKeys, noun: "expectation", at: path)
        let reader = try FixtureReader(value, at: path, allowed: ["expect", "since", "within", "label"] + extra)
        let since = try reader.string("since")
        if let since, since != "start", !context.labels.contains(since) {
            throw reader.fail("since", "no step labelled \"\(since)\" before (or \"start\")")
        }
        let within = try reader.duration("within")
        let known = context.deviceNames
        func patterns(device: String?) throws(FixtureError) -> [CallbackPattern] {
            let values = try reader.requiredArray("callbacks")
            guard !values.isEmpty else { throw reader.fail("callbacks", "must not be empty") }
            var result: [CallbackPattern] = []
            for (index, value) in values.enumerated() {
                result.append(try MatcherParser.pattern(value, at: "\(reader.at("callbacks"))[\(index)]", device: device, known: known))
            }
            return result
        }
        let kind: ExpectationKind
        switch kindName {
        case "sequence":
            let device = try context.device(try reader.requiredString("device"), reader).name
            kind = .sequence(
                device: device, callbacks: try patterns(device: device), gaps: try reader.bool("gaps") ?? true,
                complete: try reader.bool("complete") ?? false)
        case "unordered": kind = .unordered(try patterns(device: nil))
        case "order":
            let chain = try patterns(device: nil)
            guard chain.count >= 2 else { throw reader.fail("callbacks", "needs at least two callbacks to order") }
            kind = .order(chain)
        case "absent":
            if within != nil { throw reader.fail("within", "absent takes \"for\", not \"within\"") }
            kind = .absent(try patterns(device: nil), forMs: try reader.duration("for"))
        case "sent":
            if since != nil || within != nil { throw reader.fail(since != nil ? "since" : "within", "sent takes neither since nor within") }
            kind = .sent(try SentCheck.parse(reader, devices: context.deviceNames))
        default:
            kind = .state(try parseState(reader, context: context))
        }
        return Expectation(kind: kind, since: since, withinMs: within)
    }

    private static func parseState(_ reader: FixtureReader, context: StepContext) throws(FixtureError) -> StateCheck {
        let device = try context.device(try reader.requiredString("device"), reader).name
        var currentUser: String??
        if let value = reader.value("currentUser") {
            guard value.isNull || value.stringValue != nil else { throw reader.fail("currentUser", "must be a string or null") }
            currentUser = .some(value.stringValue)
        }
        var devices: [String]?
        if let values = try reader.array("devices") {
            devices = []
            for (index, value) in values.enumerated() {
                guard let name = value.stringValue, context.deviceNames.contains(name) else {
                    throw FixtureError(path: "\(reader.at("devices"))[\(index)]", reason: "must name a device of the fixture")
                }
                devices?.append(name)
            }
        }
        let check = StateCheck(
            device: device, loggedIn: try reader.bool("loggedIn"), connected: try reader.bool("connected"),
            currentUser: currentUser, loginStatus: try reader.choice("loginStatus", ["Logout", "Logging", "Logged"]),
            devices: devices)
        guard check.loggedIn != nil || check.connected != nil || check.currentUser != nil || check.loginStatus != nil
            || check.devices != nil
        else { throw FixtureError(path: reader.path, reason: "checks nothing: give loggedIn, connected, currentUser, loginStatus or devices") }
        return check
    }
}
