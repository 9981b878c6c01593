import IMockCommon

/// Writes one compact JSON object member by member, straight into bytes: the same bytes as
/// building a ``JSONValue/object(_:)`` and encoding it (``JSONValue/encodedString``), without
/// the intermediate tree. For frames sent once per message, where that tree is most of the cost.
public struct JSONObjectWriter {
    private var bytes: [UInt8]

    /// An empty object.
    public init(capacity: Int = 192) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Adds member `key` (a plain name: nothing in it needs escaping) with a string value.
    public mutating func add(_ key: StaticString, _ value: String) {
        writeKey(key)
        JSONStringEscaping.write(value, into: &bytes)
    }

    /// Adds member `key` (a plain name) with an integer value.
    public mutating func add(_ key: StaticString, _ value: Int64) {
        writeKey(key)
        JSONValue.writeInteger(value, into: &bytes)
    }

    /// The object, closed.
    public consuming func finish() -> String {
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func writeKey(_ key: StaticString) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        // Two appends, not an array literal: that allocated an array for every member.
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }
}
