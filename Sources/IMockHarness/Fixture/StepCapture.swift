import IMockCore

/// `"capture": {"mid": "messageId"}` on a device action, REST or control step: after the step,
/// the value at the path in its result or answer is kept under the name, and later steps use it
/// as `${mid}` (docs/FIXTURES.md § Captured values).
public struct StepCapture: Sendable, Equatable {
    /// The name later steps write as `${name}`.
    public var name: String
    /// Members and array indexes from the result or answer down (`entities.0.uuid`).
    public var path: [String]

    /// The value at ``path`` in `value`, if there is one.
    public func value(in value: JSONValue) -> JSONValue? {
        var current = value
        for key in path {
            if let array = current.arrayValue {
                guard let index = Int(key), array.indices.contains(index) else { return nil }
                current = array[index]
            } else {
                guard let member = current[key] else { return nil }
                current = member
            }
        }
        return current
    }
}

/// A step that uses captured values: parsed again at run time with them in place.
struct StepTemplate: Sendable {
    /// The step as written (parameters substituted, captures not).
    var json: JSONValue
    /// What the step could refer to when it was first parsed.
    var context: StepContext

    /// The step with `captured` in place of its `${name}` placeholders, parsed again.
    func resolve(_ captured: [(key: String, value: JSONValue)], at path: String) throws(FixtureError) -> Step {
        var used: Set<String> = []
        let json = try FixtureParameters.substitute(json, row: captured, at: path, used: &used)
        var context = self.context
        return try FixtureParser.parseStep(json, at: path, context: &context)
    }
}

extension FixtureParser {
    /// Reads a step's `capture` (allowed on `do`, `rest` and `control`): names not captured
    /// before, non-empty paths of members and indexes.
    static func parseCaptures(_ value: JSONValue?, verb: String, at path: String, context: StepContext) throws(FixtureError)
        -> [StepCapture]
    {
        guard let value else { return [] }
        let path = path + ".capture"
        guard ["do", "rest", "control"].contains(verb) else {
            throw FixtureError(path: path, reason: "only a do, rest or control step has a result or answer to capture from")
        }
        guard let members = value.objectValue, !members.isEmpty else {
            throw FixtureError(path: path, reason: "must be an object of names and paths, {\"mid\": \"messageId\"}")
        }
        var captures: [StepCapture] = []
        for (name, member) in members {
            guard FixtureParameters.isName(name) else {
                throw FixtureError(path: "\(path).\(name)", reason: "a captured name is a letter or _ then letters, digits or _")
            }
            guard !context.capturedNames.contains(name), !captures.contains(where: { $0.name == name }) else {
                throw FixtureError(path: "\(path).\(name)", reason: "${\(name)} is captured twice")
            }
            guard let text = member.stringValue, !text.isEmpty,
                !text.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            else {
                throw FixtureError(path: "\(path).\(name)", reason: "must be a path of members and indexes, \"entities.0.uuid\"")
            }
            captures.append(StepCapture(name: name, path: text.split(separator: ".").map(String.init)))
        }
        return captures
    }

    /// The `${name}` placeholders of captured values in `value` (a step as written): each must
    /// have been captured by an earlier step.
    static func capturedPlaceholders(in value: JSONValue, at path: String, context: StepContext) throws(FixtureError) -> Set<String> {
        var names: Set<String> = []
        func visit(_ value: JSONValue) {
            switch value {
            case .string(let text): names.formUnion(FixtureParameters.placeholders(text).map(\.name))
            case .array(let elements): elements.forEach(visit)
            case .object(let members): members.forEach { visit($0.value) }
            default: break
            }
        }
        visit(value)
        if let unknown = names.sorted().first(where: { !context.capturedNames.contains($0) }) {
            throw FixtureError(path: path, reason: "${\(unknown)} is not captured by an earlier step (\"capture\": {\"\(unknown)\": \"path\"})")
        }
        return names
    }
}
