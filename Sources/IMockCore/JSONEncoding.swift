import IMockCommon

extension JSONValue {
    /// Compact JSON (no spaces), object members in insertion order, `/` not escaped.
    /// Non-finite doubles, which JSON cannot express, are written as `null`.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    /// ``encoded()`` as a string.
    public var encodedString: String { String(decoding: encoded(), as: UTF8.self) }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): JSONValue.writeInteger(value, into: &out)
        case .double(let value):
            if value.isFinite {
                out.append(contentsOf: value.description.utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let value): JSONValue.writeString(value, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The decimal digits of `value`, without an intermediate string.
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var count = 1
        var scale: UInt64 = 10
        while count < 20, magnitude >= scale {
            count += 1
            scale = scale &* 10
        }
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var index = start + count
        repeat {
            index -= 1
            out[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        JSONStringEscaping.write(string, into: &out)
    }
}
