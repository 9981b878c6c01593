extension JSONValue {
    /// The value as indented JSON (two spaces), for files people read and diff: objects and
    /// arrays of objects one member per line, arrays of scalars on one line; a final newline.
    public var prettyString: String { pretty(indent: "") + "\n" }

    private func pretty(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .object(let members) where !members.isEmpty:
            let lines = members.map { inner + JSONValue.string($0.key).encodedString + ": " + $0.value.pretty(indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let elements) where elements.contains(where: \.isContainer):
            return "[\n" + elements.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .array(let elements):
            return "[" + elements.map(\.encodedString).joined(separator: ", ") + "]"
        default:
            return encodedString
        }
    }

    private var isContainer: Bool {
        switch self {
        case .object(let members): !members.isEmpty
        case .array(let elements): !elements.isEmpty
        default: false
        }
    }
}
