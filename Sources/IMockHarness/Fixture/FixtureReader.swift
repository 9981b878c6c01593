import IMockCore

/// Reads one JSON object of a fixture through the shared ``JSONObjectReader`` (`null` is a
/// value of the wrong type there, as in seed documents), its errors as ``FixtureError``s that
/// carry the member's JSON path; refuses unknown and duplicate keys up front, so a typo never
/// passes silently.
struct FixtureReader {
    private let object: JSONObjectReader

    init(_ value: JSONValue, at path: String, allowed: [String]) throws(FixtureError) {
        do throws(JSONFieldError) {
            object = try JSONObjectReader(value, path: path, nullIsAbsent: false)
        } catch {
            throw Self.fixtureError(error)
        }
        var seen: Set<String> = []
        for key in object.keys {
            guard allowed.contains(key) else { throw fail(key, "unknown key (allowed: \(allowed.joined(separator: ", ")))") }
            guard seen.insert(key).inserted else { throw fail(key, "duplicate key") }
        }
    }

    /// The object's dotted JSON path.
    var path: String { object.path }

    /// The members in order.
    var members: [(key: String, value: JSONValue)] { object.value.objectValue ?? [] }

    static func child(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func at(_ key: String) -> String { object.childPath(key) }

    func has(_ key: String) -> Bool { object.value(key) != nil }

    func value(_ key: String) -> JSONValue? { object.value(key) }

    func fail(_ key: String, _ reason: String) -> FixtureError { FixtureError(path: at(key), reason: reason) }

    func string(_ key: String) throws(FixtureError) -> String? {
        try read { () throws(JSONFieldError) in try object.string(key) }
    }

    func requiredString(_ key: String) throws(FixtureError) -> String {
        let text = try read { () throws(JSONFieldError) in try object.requiredString(key) }
        guard !text.isEmpty else { throw fail(key, "must not be empty") }
        return text
    }

    func bool(_ key: String) throws(FixtureError) -> Bool? {
        try read { () throws(JSONFieldError) in try object.bool(key) }
    }

    func int(_ key: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(FixtureError) -> Int64? {
        try read { () throws(JSONFieldError) in try object.int(key, in: range) }
    }

    func array(_ key: String) throws(FixtureError) -> [JSONValue]? {
        try read { () throws(JSONFieldError) in try object.array(key) }
    }

    func requiredArray(_ key: String) throws(FixtureError) -> [JSONValue] {
        try read { () throws(JSONFieldError) in try object.requiredArray(key) }
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

    private func read<T>(_ body: () throws(JSONFieldError) -> T) throws(FixtureError) -> T {
        do throws(JSONFieldError) { return try body() } catch { throw Self.fixtureError(error) }
    }

    /// The shared reader's refusal in a fixture's words (a range as `a…b`).
    private static func fixtureError(_ error: JSONFieldError) -> FixtureError {
        if case .outOfRange(let range) = error.problem {
            return FixtureError(path: error.path, reason: "must be \(range.lowerBound)…\(range.upperBound)")
        }
        return FixtureError(path: error.path, reason: error.phrase)
    }
}
