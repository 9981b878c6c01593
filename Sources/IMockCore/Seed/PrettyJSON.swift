/// Pretty-printed JSON for seed files: two-space indent, `"key": value`, one member or
/// element per line, `[]`/`{}` when empty, a final newline. Keys keep their order.
enum PrettyJSON {
    static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, indent: 0, into: &out)
        out.append(0x0A)
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                out.append(contentsOf: index == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                writeIndent(indent + 1, into: &out)
                write(element, indent: indent + 1, into: &out)
            }
            out.append(0x0A)
            writeIndent(indent, into: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                out.append(contentsOf: index == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A])
                writeIndent(indent + 1, into: &out)
                out.append(contentsOf: JSONValue.string(member.key).encoded())
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                write(member.value, indent: indent + 1, into: &out)
            }
            out.append(0x0A)
            writeIndent(indent, into: &out)
            out.append(UInt8(ascii: "}"))
        default:
            out.append(contentsOf: value.encoded())
        }
    }

    private static func writeIndent(_ level: Int, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
    }
}
