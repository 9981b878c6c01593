import IMockCommon
import IMockCore

/// Matches one JSON value: exactly, anything, a regular expression, a numeric range, or a
/// subset of an object. In fixtures a plain JSON value is exact; an object with one `$` key is
/// an operator: `{"$any": true}`, `{"$regex": "…"}`, `{"$range": [min, max]}` (either may be
/// null), `{"$subset": {…}}` (members matched recursively, others ignored).
public indirect enum ValueMatcher: Sendable {
    case exact(JSONValue)
    case any
    case regex(String)
    case range(min: Double?, max: Double?)
    case subset([(key: String, matcher: ValueMatcher)])
    /// Every element matched in order, same count.
    case array([ValueMatcher])

    /// Whether `value` matches.
    public func matches(_ value: JSONValue?) -> Bool {
        switch self {
        case .any:
            return value != nil
        case .exact(let expected):
            guard let value else { return false }
            return Self.sameValue(expected, value)
        case .regex(let pattern):
            guard let text = value?.stringValue ?? value.map(\.encodedString) else { return false }
            return RegexMatch.matches(pattern, text)
        case .range(let minimum, let maximum):
            guard let number = value.flatMap(Self.number) else { return false }
            return (minimum.map { number >= $0 } ?? true) && (maximum.map { number <= $0 } ?? true)
        case .subset(let members):
            guard let value, value.objectValue != nil else { return false }
            return members.allSatisfy { $0.matcher.matches(value[$0.key]) }
        case .array(let elements):
            guard let values = value?.arrayValue, values.count == elements.count else { return false }
            return zip(elements, values).allSatisfy { $0.matches($1) }
        }
    }

    /// The matcher in fixture syntax.
    public var summary: String {
        switch self {
        case .exact(let value): value.encodedString
        case .any: "{\"$any\":true}"
        case .regex(let pattern): "{\"$regex\":\(JSONValue.string(pattern).encodedString)}"
        case .range(let minimum, let maximum):
            "{\"$range\":[\(minimum.map(Self.format) ?? "null"),\(maximum.map(Self.format) ?? "null")]}"
        case .subset(let members):
            "{\"$subset\":{" + members.map { "\(JSONValue.string($0.key).encodedString):\($0.matcher.summary)" }
                .joined(separator: ",") + "}}"
        case .array(let elements): "[" + elements.map(\.summary).joined(separator: ",") + "]"
        }
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// Equal JSON, with integers and doubles of the same value equal and object members in any order.
    static func sameValue(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { member in b.contains { $0.key == member.key && sameValue(member.value, $0.value) } }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { sameValue($0, $1) }
        default:
            if let x = number(lhs), let y = number(rhs) { return x == y }
            return lhs == rhs
        }
    }
}
