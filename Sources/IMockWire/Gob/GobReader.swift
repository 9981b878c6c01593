import IMockCommon

/// Reads gob primitives from one message, never past its end.
struct GobReader {
    private let bytes: [UInt8]
    private(set) var index: Int
    private let end: Int

    /// A reader of `bytes[start..<end]`.
    init(_ bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        self.index = start
        self.end = end
    }

    /// Bytes left in the message.
    var remaining: Int { end - index }

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
