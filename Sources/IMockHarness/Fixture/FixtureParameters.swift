import IMockCore

/// A parameterised fixture's table, `"parameters": [{"code": 206}, {"code": 217}]`: the fixture
/// runs once per row, each row substituting its values for the `${name}` placeholders of the
/// steps. A string that is exactly one placeholder (`"${code}"`) takes the value with its JSON
/// type; a placeholder inside a longer string takes its text (a string, number or boolean).
struct FixtureParameters {
    /// One row: parameter names and values, in the order written.
    typealias Row = [(key: String, value: JSONValue)]

    /// The rows, in order (never empty).
    let rows: [Row]

    /// Reads and checks `parameters`: a non-empty array of objects with the same non-empty set of
    /// names (`[A-Za-z_][A-Za-z0-9_]*`), no row twice.
    init(_ value: JSONValue) throws(FixtureError) {
        guard let array = value.arrayValue else { throw FixtureError(path: "parameters", reason: "must be an array of objects") }
        guard !array.isEmpty else { throw FixtureError(path: "parameters", reason: "must list at least one row") }
        var rows: [Row] = []
        for (index, element) in array.enumerated() {
            let path = "parameters[\(index)]"
            guard let row = element.objectValue, !row.isEmpty else {
                throw FixtureError(path: path, reason: "must be an object of parameter names and values")
            }
            for (key, _) in row where !Self.isName(key) {
                throw FixtureError(path: "\(path).\(key)", reason: "a parameter name is a letter or _ then letters, digits or _")
            }
            let names = row.map(\.key)
            guard Set(names).count == names.count else { throw FixtureError(path: path, reason: "names a parameter twice") }
            if let first = rows.first, Set(first.map(\.key)) != Set(names) {
                throw FixtureError(
                    path: path, reason: "has \(names.sorted().joined(separator: ", ")) but parameters[0] has \(first.map(\.key).sorted().joined(separator: ", "))")
            }
            if let twin = rows.firstIndex(where: { Self.label($0) == Self.label(row) }) {
                throw FixtureError(path: path, reason: "repeats parameters[\(twin)]")
            }
            rows.append(row)
        }
        self.rows = rows
    }

    /// The case's suffix: `code=206` (strings bare, other values as JSON), names in row order.
    static func label(_ row: Row) -> String {
        row.map { "\($0.key)=\($0.value.stringValue ?? text($0.value))" }.joined(separator: ", ")
    }

    /// `value` (at `path`) with `row`'s values in place of its placeholders; a placeholder
    /// `row` does not name is refused (`row` nil: the fixture has no parameters) unless it is
    /// one of `kept` (values captured at run time, left in place). Every name substituted is
    /// added to `used`.
    static func substitute(
        _ value: JSONValue, row: Row?, at path: String, used: inout Set<String>, keeping kept: Set<String> = []
    ) throws(FixtureError) -> JSONValue {
        switch value {
        case .string(let text):
            return try substitute(text, row: row, at: path, used: &used, keeping: kept)
        case .array(let elements):
            var result: [JSONValue] = []
            for (index, element) in elements.enumerated() {
                result.append(try substitute(element, row: row, at: "\(path)[\(index)]", used: &used, keeping: kept))
            }
            return .array(result)
        case .object(let members):
            var result: [(key: String, value: JSONValue)] = []
            for (key, member) in members {
                result.append((key, try substitute(member, row: row, at: "\(path).\(key)", used: &used, keeping: kept)))
            }
            return .object(result)
        default:
            return value
        }
    }

    private static func substitute(
        _ text: String, row: Row?, at path: String, used: inout Set<String>, keeping kept: Set<String>
    ) throws(FixtureError) -> JSONValue {
        let found = placeholders(text).filter { !kept.contains($0.name) }
        guard !found.isEmpty else { return .string(text) }
        func value(_ name: String) throws(FixtureError) -> JSONValue {
            guard let row else { throw FixtureError(path: path, reason: "unknown parameter ${\(name)} (the fixture has no parameters, and no step captures it)") }
            guard let value = row.first(where: { $0.key == name })?.value else {
                throw FixtureError(path: path, reason: "unknown parameter ${\(name)} (parameters: \(row.map(\.key).joined(separator: ", ")))")
            }
            used.insert(name)
            return value
        }
        if found.count == 1, found[0].range == text.startIndex..<text.endIndex { return try value(found[0].name) }
        var result = ""
        var rest = text.startIndex
        for placeholder in found {
            result += text[rest..<placeholder.range.lowerBound]
            let substituted = try value(placeholder.name)
            switch substituted {
            case .string(let string): result += string
            case .int, .double, .bool: result += Self.text(substituted)
            default:
                throw FixtureError(
                    path: path, reason: "parameter ${\(placeholder.name)} is \(Self.text(substituted)): only a string that is just \"${\(placeholder.name)}\" can take it")
            }
            rest = placeholder.range.upperBound
        }
        return .string(result + text[rest...])
    }

    /// The `${name}` placeholders of `text`, in order (other `${` text is left alone).
    static func placeholders(_ text: String) -> [(name: String, range: Range<String.Index>)] {
        var found: [(name: String, range: Range<String.Index>)] = []
        var search = text.startIndex
        while let open = text[search...].firstRange(of: "${") {
            guard let close = text[open.upperBound...].firstIndex(of: "}") else { break }
            let name = String(text[open.upperBound..<close])
            if isName(name) {
                found.append((name, open.lowerBound..<text.index(after: close)))
                search = text.index(after: close)
            } else {
                search = open.upperBound
            }
        }
        return found
    }

    /// The names a `capture` of some step in `steps` declares (they are not parameters).
    static func capturedNames(in steps: JSONValue) -> Set<String> {
        Set((steps.arrayValue ?? []).flatMap { $0["capture"]?.objectValue?.map(\.key) ?? [] })
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    private static func text(_ value: JSONValue) -> String { String(decoding: value.encoded(), as: UTF8.self) }
}
