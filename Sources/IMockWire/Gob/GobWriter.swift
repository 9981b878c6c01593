/// Appends gob primitives to a byte buffer (Go `encoding/gob` encode.go rules).
struct GobWriter {
    private(set) var bytes: [UInt8] = []

    /// An unsigned integer: below 128 one byte; otherwise the negated byte count, then the
    /// value's bytes big-endian with no leading zeros.
    mutating func writeUint(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(UInt8(value))
            return
        }
        let count = (UInt64.bitWidth - value.leadingZeroBitCount + 7) / 8
        bytes.append(UInt8(truncatingIfNeeded: -count))
        for index in stride(from: count - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (index * 8)))
        }
    }

    /// A signed integer: the magnitude shifted left by one, the low bit set (and the rest
    /// complemented) for negative values.
    mutating func writeInt(_ value: Int64) {
        let bits = value < 0 ? UInt64(bitPattern: ~value) << 1 | 1 : UInt64(value) << 1
        writeUint(bits)
    }

    /// A string or byte slice: its length, then its bytes.
    mutating func writeBytes(_ value: some Collection<UInt8>) {
        writeUint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// Moves to struct field `number` from field `last` (-1 at the start of a struct).
    mutating func writeFieldDelta(to number: Int, from last: inout Int) {
        writeUint(UInt64(number - last))
        last = number
    }

    /// One field value.
    mutating func write(_ value: GobValue) {
        switch value {
        case .bool(let bool): writeUint(bool ? 1 : 0)
        case .int(let int): writeInt(int)
        case .uint(let uint): writeUint(uint)
        case .string(let string): writeBytes(string.utf8)
        case .bytes(let bytes): writeBytes(bytes)
        }
    }

    /// The end of a struct: a zero field delta.
    mutating func writeStructEnd() { bytes.append(0) }

    /// `body` as one message: its byte count, then its bytes.
    mutating func writeMessage(_ body: GobWriter) {
        writeBytes(body.bytes)
    }
}
