import IMockCommon

/// Reads gob primitives from one message, never past its end. A ``GobCodable`` type reads
/// its field values with the `…Field()` methods.
public struct GobReader {
    private let bytes: [UInt8]
    private(set) var index: Int
    private let end: Int
    /// The Go names of the fields of the struct being read, and the index of the field whose
    /// value is next: what errors name.
    var fieldNames: [String] = []
    var fieldIndex = 0

    /// A reader of `bytes[start..<end]`.
    init(_ bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        self.index = start
        self.end = end
    }

    /// Bytes left in the message.
    var remaining: Int { end - index }

    /// Whether the rest of the message is `expected`, byte for byte. Compared eight bytes at a
    /// time: `elementsEqual` took ~30 instructions a byte.
    func restEquals(_ expected: [UInt8]) -> Bool {
        guard expected.count == remaining else { return false }
        return bytes.withUnsafeBytes { buffer in
            expected.withUnsafeBytes { expected in
                let rest = UnsafeRawBufferPointer(rebasing: buffer[index..<end])
                var offset = 0
                while offset + 8 <= rest.count {
                    let word = rest.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    guard word == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                    offset += 8
                }
                while offset < rest.count {
                    guard rest[offset] == expected[offset] else { return false }
                    offset += 1
                }
                return true
            }
        }
    }

    /// Moves to the end of the message.
    mutating func skipRest() { index = end }

    /// An unsigned integer of at most 8 bytes after its negated-count prefix. Like Go, a
    /// non-minimal encoding is accepted.
    mutating func readUint(_ what: @autoclosure () -> String = "an unsigned integer") throws(GobError) -> UInt64 {
        guard index < end else { throw .truncated(what()) }
        let first = bytes[index]
        index += 1
        if first < 0x80 { return UInt64(first) }
        let count = 256 - Int(first)
        guard count <= 8 else { throw .uintOutOfRange }
        guard count <= remaining else { throw .truncated(what()) }
        var value: UInt64 = 0
        for byte in bytes[index..<(index + count)] { value = value << 8 | UInt64(byte) }
        index += count
        return value
    }

    /// A signed integer (sign in the low bit).
    mutating func readInt(_ what: @autoclosure () -> String = "an integer") throws(GobError) -> Int64 {
        let bits = try readUint(what())
        let magnitude = Int64(bitPattern: bits >> 1)
        return bits & 1 == 0 ? magnitude : ~magnitude
    }

    /// A count of items that each take at least `minimumSize` bytes, checked against the
    /// bytes left so that no count can make the caller loop or allocate beyond the input.
    mutating func readCount(minimumSize: Int = 1) throws(GobError) -> Int {
        let count = try readUint("a count")
        guard count <= UInt64(remaining / max(1, minimumSize)) else { throw .countTooLarge(count) }
        return Int(count)
    }

    /// A length-prefixed byte string.
    mutating func readBytes() throws(GobError) -> ArraySlice<UInt8> {
        let count = try readCount()
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    /// A length-prefixed UTF-8 string; `field` names it in errors.
    mutating func readString(field: String) throws(GobError) -> String {
        let raw = try readBytes()
        guard let string = String(validUTF8: raw) else { throw .invalidUTF8(field: field) }
        return string
    }

    /// Walks a struct value: calls `body` with each field number present, in order, until the
    /// zero delta or (as Go allows) the end of the message.
    mutating func readStruct(
        fieldCount: Int, _ body: (inout GobReader, Int) throws(GobError) -> Void
    ) throws(GobError) {
        var field = -1
        while remaining > 0 {
            let delta = try readUint("a field delta")
            if delta == 0 { return }
            guard delta <= UInt64(fieldCount - 1 - field) else { throw .fieldNumberOutOfRange }
            field += Int(delta)
            try body(&self, field)
        }
    }
}

// MARK: - Field values

extension GobReader {
    /// The value of a Go `bool` field.
    public mutating func boolField() throws(GobError) -> Bool {
        let name = fieldName
        return try readUint(name) != 0
    }

    /// The value of a Go `int` field (refused if it does not fit `Int`).
    public mutating func intField() throws(GobError) -> Int {
        let name = fieldName
        guard let value = Int(exactly: try readInt(name)) else { throw .valueOutOfRange(field: name) }
        return value
    }

    /// The value of a Go `uint` field.
    public mutating func uintField() throws(GobError) -> UInt64 {
        let name = fieldName
        return try readUint(name)
    }

    /// The value of a Go `string` field (refused if it is not UTF-8).
    public mutating func stringField() throws(GobError) -> String {
        let name = fieldName
        return try readString(field: name)
    }

    /// The value of a Go `[]byte` field.
    public mutating func bytesField() throws(GobError) -> [UInt8] { Array(try readBytes()) }

    private var fieldName: String { fieldIndex < fieldNames.count ? fieldNames[fieldIndex] : "" }
}
