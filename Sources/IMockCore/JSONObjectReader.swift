/// Why one member of a JSON object was refused: where (a dotted JSON path such as
/// `device.uuid` or `apps[1].users[0].sequence`) and what was wrong with it.
///
/// Every face of imock reads JSON objects through ``JSONObjectReader`` and renders this error in
/// its own envelope: REST `illegal_argument`, control API 400, `error` frame 110, seed error.
public struct JSONFieldError: Error, Sendable, Equatable {
    /// What was wrong.
    public enum Problem: Sendable, Equatable {
        /// The value is not a JSON object.
        case notAnObject
        /// A required member is absent.
        case missing
        /// The member has another JSON type; the noun with its article (`an integer`).
        case wrongType(expected: String)
        /// An integer outside the accepted range.
        case outOfRange(ClosedRange<Int64>)
        /// A member the object does not know; the known ones.
        case unknownKey(allowed: [String])
        /// The right type with a value that is refused, and why (`must be …`).
        case invalid(String)
    }

    /// The dotted JSON path of the member (empty for the whole document).
    public var path: String
    /// What was wrong.
    public var problem: Problem

    /// Creates an error.
    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// What is wrong, without the path: `must be an integer`, `is required`, `must be 0 to 9`.
    public var phrase: String {
        switch problem {
        case .notAnObject: "must be an object"
        case .missing: "is required"
        case .wrongType(let expected): "must be \(expected)"
        case .outOfRange(let range): "must be \(range.lowerBound) to \(range.upperBound)"
        case .unknownKey: "unknown key"
        case .invalid(let reason): reason
        }
    }

    /// `path: phrase` (the phrase alone for the whole document).
    public var sentence: String { path.isEmpty ? phrase : "\(path): \(phrase)" }
}

/// Typed, range-checked access to the members of one JSON object, the one reader behind REST
/// bodies, control-API bodies, protocol frames and seed documents.
///
/// Integers are read with the range the field accepts, so a number from outside can never
/// reach arithmetic that traps: 2⁶³ and beyond arrive as doubles and are refused as
/// "must be an integer", in-range integers outside the field's range as "must be a to b".
public struct JSONObjectReader: Sendable {
    /// The object.
    public let value: JSONValue
    /// Its dotted JSON path (empty at the top level).
    public let path: String
    /// Whether a member whose value is `null` counts as absent (REST, control API, frames) or
    /// as a value of the wrong type (seed documents, which say `null` only where it is allowed).
    public let nullIsAbsent: Bool
    private let members: [(key: String, value: JSONValue)]

    /// Reads `value`, which must be an object.
    public init(_ value: JSONValue, path: String = "", nullIsAbsent: Bool = true) throws(JSONFieldError) {
        guard let members = value.objectValue else { throw JSONFieldError(path: path, problem: .notAnObject) }
        self.value = value
        self.path = path
        self.nullIsAbsent = nullIsAbsent
        self.members = members
    }

    /// `path.key`, or `key` at the top level.
    public func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member names in order.
    public var keys: [String] { members.map(\.key) }

    /// Refuses the first member whose name is not in `allowed`, so a typo never passes silently.
    public func allowOnly(_ allowed: some Collection<String>) throws(JSONFieldError) {
        for member in members where !allowed.contains(member.key) {
            throw JSONFieldError(path: childPath(member.key), problem: .unknownKey(allowed: allowed.sorted()))
        }
    }

    /// The raw value of `key` (nil when absent, and for `null` when ``nullIsAbsent``).
    public func value(_ key: String) -> JSONValue? {
        guard let value = members.first(where: { $0.key == key })?.value else { return nil }
        // Spelled out: in `cond ? nil : value` the `nil` would become `JSONValue.null`.
        if nullIsAbsent, value.isNull { return Optional<JSONValue>.none }
        return value
    }

    /// A string member.
    public func string(_ key: String) throws(JSONFieldError) -> String? {
        try typed(key, "a string") { $0.stringValue }
    }

    /// A string member that must be present.
    public func requiredString(_ key: String) throws(JSONFieldError) -> String {
        try required(key, try string(key))
    }

    /// A string member that may also be `null` (nil for both).
    public func nullableString(_ key: String) throws(JSONFieldError) -> String? {
        guard let value = value(key), !value.isNull else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, "a string or null") }
        return text
    }

    /// An integer member within `range` (a number with a fraction, or beyond `Int64`, is not an
    /// integer).
    public func int(_ key: String, in range: ClosedRange<Int64> = Int64.min...Int64.max) throws(JSONFieldError)
        -> Int64?
    {
        guard let number = try typed(key, "an integer", { $0.intValue }) else { return nil }
        guard range.contains(number) else { throw JSONFieldError(path: childPath(key), problem: .outOfRange(range)) }
        return number
    }

    /// An integer member within `range` that must be present.
    public func requiredInt(_ key: String, in range: ClosedRange<Int64> = Int64.min...Int64.max)
        throws(JSONFieldError) -> Int64
    {
        try required(key, try int(key, in: range))
    }

    /// An integer member within `range` that may also be `null` (nil for both).
    public func nullableInt(_ key: String, in range: ClosedRange<Int64> = Int64.min...Int64.max)
        throws(JSONFieldError) -> Int64?
    {
        guard let value = value(key), !value.isNull else { return nil }
        guard let number = value.intValue else { throw wrongType(key, "an integer or null") }
        guard range.contains(number) else { throw JSONFieldError(path: childPath(key), problem: .outOfRange(range)) }
        return number
    }

    /// A number member (integer or not) within `range`.
    public func number(_ key: String, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double? {
        guard let number = try typed(key, "a number", { value -> Double? in
            switch value {
            case .int(let int): Double(int)
            case .double(let double): double
            default: nil
            }
        }) else { return nil }
        guard range.contains(number) else {
            throw JSONFieldError(path: childPath(key), problem: .invalid("must be \(range.lowerBound) to \(range.upperBound)"))
        }
        return number
    }

    /// A boolean member.
    public func bool(_ key: String) throws(JSONFieldError) -> Bool? {
        try typed(key, "a boolean") { $0.boolValue }
    }

    /// An array member.
    public func array(_ key: String) throws(JSONFieldError) -> [JSONValue]? {
        try typed(key, "an array") { $0.arrayValue }
    }

    /// An array member that must be present.
    public func requiredArray(_ key: String) throws(JSONFieldError) -> [JSONValue] {
        try required(key, try array(key))
    }

    /// An array of strings.
    public func strings(_ key: String) throws(JSONFieldError) -> [String]? {
        guard let elements = try array(key) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                throw JSONFieldError(path: "\(childPath(key))[\(index)]", problem: .wrongType(expected: "a string"))
            }
            strings.append(text)
        }
        return strings
    }

    /// An object member, as a reader of its own (same null rule).
    public func object(_ key: String) throws(JSONFieldError) -> JSONObjectReader? {
        guard let value = value(key) else { return nil }
        guard value.objectValue != nil else { throw wrongType(key, "an object") }
        return try JSONObjectReader(value, path: childPath(key), nullIsAbsent: nullIsAbsent)
    }

    /// An object member that must be present.
    public func requiredObject(_ key: String) throws(JSONFieldError) -> JSONObjectReader {
        try required(key, try object(key))
    }

    /// The elements of the array member `key` that must each be an object, as readers.
    public func objects(_ key: String) throws(JSONFieldError) -> [JSONObjectReader]? {
        guard let elements = try array(key) else { return nil }
        var readers: [JSONObjectReader] = []
        readers.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            readers.append(try JSONObjectReader(element, path: "\(childPath(key))[\(index)]", nullIsAbsent: nullIsAbsent))
        }
        return readers
    }

    /// The error for `key` holding something other than `expected`.
    public func wrongType(_ key: String, _ expected: String) -> JSONFieldError {
        JSONFieldError(path: childPath(key), problem: .wrongType(expected: expected))
    }

    /// The error for `key` holding a refused value.
    public func invalid(_ key: String, _ reason: String) -> JSONFieldError {
        JSONFieldError(path: childPath(key), problem: .invalid(reason))
    }

    private func typed<T>(_ key: String, _ expected: String, _ extract: (JSONValue) -> T?) throws(JSONFieldError) -> T? {
        guard let value = value(key) else { return nil }
        guard let typed = extract(value) else { throw wrongType(key, expected) }
        return typed
    }

    private func required<T>(_ key: String, _ value: T?) throws(JSONFieldError) -> T {
        guard let value else { throw JSONFieldError(path: childPath(key), problem: .missing) }
        return value
    }
}
