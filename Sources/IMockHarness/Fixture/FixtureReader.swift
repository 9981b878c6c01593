import IMockCore

/// Reads one JSON object of a fixture with typed getters whose errors carry the member's JSON
/// path; refuses unknown and duplicate keys up front, so a typo never passes silently.
struct FixtureReader {
    let path: String
    let members: [(key: String, value: JSONValue)]

    init(_ value: JSONValue, at path: String, allowed: [String]) throws(FixtureError) {
        guard let members = value.objectValue else { throw FixtureError(path: path, reason: "must be an object") }
        self.path = path
        self.members = members
        var seen: Set<String> = []
        for member in members {
            guard allowed.contains(member.key) else {
                throw FixtureError(
                    path: Self.child(path, member.key),
                    reason: "unknown key (allowed: \(allowed.joined(separator: ", ")))")
            }
            guard seen.insert(member.key).inserted else {
                throw FixtureError(path: Self.child(path, member.key), reason: "duplicate key")
            }
        }
    }

    static func child(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func at(_ key: String) -> String { Self.child(path, key) }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    func fail(_ key: String, _ reason: String) -> FixtureError { FixtureError(path: at(key), reason: reason) }

    func string(_ key: String) throws(FixtureError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw fail(key, "must be a string") }
        return text
    }

    func requiredString(_ key: String) throws(FixtureError) -> String {
        guard let text = try string(key) else { throw fail(key, "is required") }
        guard !text.isEmpty else { throw fail(key, "must not be empty") }
        return text
    }

    func bool(_ key: String) throws(FixtureError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw fail(key, "must be a boolean") }
        return flag
    }

    func int(_ key: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(FixtureError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue else { throw fail(key, "must be an integer") }
        guard range.contains(number) else { throw fail(key, "must be \(range.lowerBound)…\(range.upperBound)") }
        return number
    }

    func array(_ key: String) throws(FixtureError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard let elements = value.arrayValue else { throw fail(key, "must be an array") }
        return elements
    }

    func requiredArray(_ key: String) throws(FixtureError) -> [JSONValue] {
        guard let elements = try array(key) else { throw fail(key, "is required") }
        return elements
    }

    /// A duration: `"55m"`, `"1h30m"`, `"20s"`, `"1500ms"`, or an integer of ms (≥ 0).
    func duration(_ key: String) throws(FixtureError) -> Int64? {
        guard let value = value(key) else { return nil }
        if let ms = value.intValue, ms >= 0 { return ms }
        guard let text = value.stringValue, let ms = DurationText.parse(text) else {
            throw fail(key, "must be a duration like \"55m\", \"1h30m\", \"20s\" or \"1500ms\"")
        }
        return ms
    }

    /// One of `choices`.
    func choice(_ key: String, _ choices: [String]) throws(FixtureError) -> String? {
        guard let text = try string(key) else { return nil }
        guard choices.contains(text) else {
            throw fail(key, "must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(text)\"")
        }
        return text
    }
}
