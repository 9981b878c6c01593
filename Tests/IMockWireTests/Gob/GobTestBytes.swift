/// Gob primitives and type definitions written independently of `GobEncoder`.
enum HandGob {
    static func uint(_ value: UInt64) -> [UInt8] {
        if value < 0x80 { return [UInt8(value)] }
        var bytes: [UInt8] = []
        var rest = value
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [UInt8(256 - bytes.count)] + bytes
    }

    static func int(_ value: Int64) -> [UInt8] {
        uint(value < 0 ? UInt64(bitPattern: ~value) << 1 | 1 : UInt64(value) << 1)
    }

    static func string(_ value: String) -> [UInt8] { uint(UInt64(value.utf8.count)) + Array(value.utf8) }

    /// A length-prefixed message.
    static func message(_ body: [UInt8]) -> [UInt8] { uint(UInt64(body.count)) + body }

    /// `{Name, Id}` (CommonType and fieldType have the same shape).
    static func nameAndID(_ name: String, _ id: Int) -> [UInt8] { [1] + string(name) + [1] + int(Int64(id)) + [0] }

    /// The message defining struct `name` with `fields` as type `id`.
    static func structDefinition(_ id: Int, _ name: String, _ fields: [(String, Int)]) -> [UInt8] {
        var body = int(Int64(-id)) + [3, 1] + nameAndID(name, id)
        if !fields.isEmpty {
            body += [1] + uint(UInt64(fields.count))
            for (fieldName, fieldID) in fields { body += nameAndID(fieldName, fieldID) }
        }
        return message(body + [0, 0])
    }

    /// The message defining `[]element` as type `id`.
    static func sliceDefinition(_ id: Int, element: Int) -> [UInt8] {
        message(int(Int64(-id)) + [2, 1] + nameAndID("[]x", id) + [1] + int(Int64(element)) + [0, 0])
    }

    /// The message defining `[length]element` as type `id`.
    static func arrayDefinition(_ id: Int, element: Int, length: Int) -> [UInt8] {
        message(int(Int64(-id)) + [1, 1] + nameAndID("[n]x", id) + [1] + int(Int64(element)) + [1] + int(Int64(length)) + [0, 0])
    }

    /// The message defining `map[key]element` as type `id`.
    static func mapDefinition(_ id: Int, key: Int, element: Int) -> [UInt8] {
        message(int(Int64(-id)) + [4, 1] + nameAndID("map", id) + [1] + int(Int64(key)) + [1] + int(Int64(element)) + [0, 0])
    }

    /// A value message of type `id` with `body` (field deltas and values, terminator included).
    static func value(_ id: Int, _ body: [UInt8]) -> [UInt8] { message(int(Int64(id)) + body) }
}
