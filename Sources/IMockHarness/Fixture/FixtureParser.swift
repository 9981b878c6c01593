import IMockClient
import IMockCore

/// Parses and checks a fixture file. Every error names the JSON path of the offending value;
/// nothing of a refused fixture runs.
public enum FixtureParser {
    static let topKeys = ["$schema", "name", "description", "rules", "expectedFailure", "parameters", "apps", "devices", "steps"]
    static let appSettingKeys = [
        "registrationMode", "loginPolicy", "serviceEnabled", "activeUserLimit", "defaultTokenTTLSeconds",
        "restRateLimitPerSecond",
    ]

    /// Parses `bytes` of `file`, a fixture without `parameters` (else see ``parseCases(_:file:)``).
    public static func parse(_ bytes: [UInt8], file: String) throws(FixtureError) -> Fixture {
        let cases = try parseCases(bytes, file: file)
        guard cases.count == 1, cases[0].parameters == nil else {
            throw FixtureError(file: file, path: "parameters", reason: "a parameterised fixture has a case per row: read it with parseCases")
        }
        return cases[0]
    }

    /// Parses `bytes` of `file` into its cases: the fixture itself, or one fixture per row of
    /// its `parameters`, named `name[code=206]`, with the row's values substituted in its steps.
    public static func parseCases(_ bytes: [UInt8], file: String) throws(FixtureError) -> [Fixture] {
        do throws(FixtureError) {
            let json: JSONValue
            do { json = try JSONValue.parse(bytes) } catch {
                throw FixtureError(path: "", reason: "not valid JSON: \(error.reason.rawValue) at byte \(error.offset)")
            }
            return try parseCases(json)
        } catch {
            var located = error
            located.file = file
            throw located
        }
    }

    private static func parseCases(_ json: JSONValue) throws(FixtureError) -> [Fixture] {
        guard let members = json.objectValue, let table = members.first(where: { $0.key == "parameters" })?.value else {
            var used: Set<String> = []
            if let steps = json["steps"] {
                _ = try FixtureParameters.substitute(
                    steps, row: nil, at: "steps", used: &used, keeping: FixtureParameters.capturedNames(in: steps))
            }
            return [try parseDocument(json)]
        }
        guard members.filter({ $0.key == "parameters" }).count == 1 else {
            throw FixtureError(path: "parameters", reason: "duplicate key")
        }
        let parameters = try FixtureParameters(table)
        let captured = json["steps"].map(FixtureParameters.capturedNames) ?? []
        if let clash = parameters.rows[0].first(where: { captured.contains($0.key) }) {
            throw FixtureError(path: "parameters[0].\(clash.key)", reason: "${\(clash.key)} is also a captured value: use another name")
        }
        var used: Set<String> = []
        var documents: [JSONValue] = []
        for row in parameters.rows {
            var document: [(key: String, value: JSONValue)] = []
            for (key, value) in members where key != "parameters" {
                document.append((key, key == "steps" ? try FixtureParameters.substitute(value, row: row, at: "steps", used: &used, keeping: captured) : value))
            }
            documents.append(.object(document))
        }
        if let unused = parameters.rows[0].first(where: { !used.contains($0.key) }) {
            throw FixtureError(path: "parameters[0].\(unused.key)", reason: "no step uses ${\(unused.key)}")
        }
        var cases: [Fixture] = []
        for (index, document) in documents.enumerated() {
            let label = FixtureParameters.label(parameters.rows[index])
            do {
                var fixture = try parseDocument(document)
                fixture.name += "[\(label)]"
                fixture.parameters = label
                cases.append(fixture)
            } catch {
                var inRow = error
                inRow.reason += " (parameters[\(index)]: \(label))"
                throw inRow
            }
        }
        return cases
    }

    private static func parseDocument(_ json: JSONValue) throws(FixtureError) -> Fixture {
        let top = try FixtureReader(json, at: "", allowed: topKeys)
        let name = try top.requiredString("name")
        let rules = try parseRules(top)
        let apps = try parseApps(top)
        let devices = try parseDevices(top, apps: apps)
        var context = StepContext(apps: apps, devices: devices)
        var steps: [Step] = []
        for (index, value) in try top.requiredArray("steps").enumerated() {
            steps.append(try parseStep(value, at: "steps[\(index)]", context: &context))
        }
        guard !steps.isEmpty else { throw top.fail("steps", "must not be empty") }
        guard steps.contains(where: \.checks) else {
            throw top.fail("steps", "checks nothing (no expectation, REST call, or result): a fixture must be able to fail")
        }
        return Fixture(
            file: "", name: name, description: try top.string("description") ?? "", rules: rules,
            expectedFailures: try parseExpectedFailures(top, steps: steps.count), apps: apps, devices: devices, steps: steps)
    }

    private static func parseRules(_ top: FixtureReader) throws(FixtureError) -> [RuleReference] {
        let values = try top.requiredArray("rules")
        guard !values.isEmpty else { throw top.fail("rules", "must name at least one rule of CONFORMANCE.md") }
        var rules: [RuleReference] = []
        for (index, value) in values.enumerated() {
            let reader = try FixtureReader(value, at: "rules[\(index)]", allowed: ["id", "source"])
            let id = try reader.requiredString("id")
            guard RuleCatalogue.rule(id) != nil else {
                throw reader.fail("id", "unknown rule id \"\(id)\" (CONFORMANCE.md has S1–S7, E1–E15, C1–C12, O1–O9, Z1–Z6, X1–X3)")
            }
            guard !rules.contains(where: { $0.id == id }) else { throw reader.fail("id", "rule \(id) is listed twice") }
            rules.append(RuleReference(id: id, source: try reader.requiredString("source")))
        }
        return rules
    }

    private static func parseApps(_ top: FixtureReader) throws(FixtureError) -> [FixtureApp] {
        let values = try top.requiredArray("apps")
        guard !values.isEmpty else { throw top.fail("apps", "must not be empty") }
        var apps: [FixtureApp] = []
        for (index, value) in values.enumerated() {
            let reader = try FixtureReader(value, at: "apps[\(index)]", allowed: ["name", "users"] + appSettingKeys)
            let name = try reader.string("name") ?? "app"
            guard !name.isEmpty, name.count <= 16, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
            else { throw reader.fail("name", "must be 1–16 of a-z, 0-9 and -") }
            guard !apps.contains(where: { $0.name == name }) else { throw reader.fail("name", "app \"\(name)\" twice") }
            let settings = reader.members.filter { appSettingKeys.contains($0.key) }
            _ = try reader.choice("registrationMode", ["open", "authorized"])
            var users: [FixtureUser] = []
            for (userIndex, user) in (try reader.array("users") ?? []).enumerated() {
                let parsed = try parseUser(user, at: "\(reader.at("users"))[\(userIndex)]")
                guard !users.contains(where: { $0.username == parsed.username }) else {
                    throw FixtureError(path: "\(reader.at("users"))[\(userIndex)]", reason: "user \"\(parsed.username)\" twice")
                }
                users.append(parsed)
            }
            apps.append(FixtureApp(name: name, settings: settings, users: users))
        }
        return apps
    }

    private static func parseUser(_ value: JSONValue, at path: String) throws(FixtureError) -> FixtureUser {
        if let username = value.stringValue {
            guard isUsername(username) else { throw FixtureError(path: path, reason: "username must be 1–64 of a-z 0-9 _ . -") }
            return FixtureUser(username: username, password: "\(username)-password", activated: true)
        }
        let reader = try FixtureReader(value, at: path, allowed: ["username", "password", "activated"])
        let username = try reader.requiredString("username")
        guard isUsername(username) else { throw reader.fail("username", "must be 1–64 of a-z 0-9 _ . -") }
        return FixtureUser(
            username: username, password: try reader.string("password") ?? "\(username)-password",
            activated: try reader.bool("activated") ?? true)
    }

    static func isUsername(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || "_.-".contains($0)) }
    }
}
