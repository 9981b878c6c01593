import IMockCommon

/// Appends gob primitives to a byte buffer (Go `encoding/gob` encode.go rules).
struct GobWriter {
    private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// A writer that appends to `bytes`, which it takes over (leaving `bytes` empty) so that
    /// the buffer stays unshared and grows in place; ``takeBytes()`` hands it back.
    init(takingOver bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
    }

    /// Hands the buffer back and leaves the writer empty.
    mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

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

    /// A byte slice: its length, then its bytes.
    mutating func writeBytes(_ value: [UInt8]) {
        value.withUnsafeBufferPointer { writeBytes($0) }
    }

    /// A string: its UTF-8 length, then its UTF-8 bytes. `withUTF8` reaches the bytes of
    /// small strings too (ids, `msgIncr`), which the UTF-8 view's contiguous storage does not.
    mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { writeBytes($0) }
    }

    /// Bytes copied from memory, as the others end up: a `[UInt8]` or `String.UTF8View`
    /// appended as a collection goes element by element.
    private mutating func writeBytes(_ value: UnsafeBufferPointer<UInt8>) {
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
        case .string(let string): writeString(string)
        case .bytes(let bytes): writeBytes(bytes)
        }
    }

    /// The end of a struct: a zero field delta.
    mutating func writeStructEnd() { bytes.append(0) }

    /// `body` as one message: its byte count, then its bytes.
    mutating func writeMessage(_ body: [UInt8]) {
        writeBytes(body)
    }

    /// Makes the bytes written since `start` one message: puts their byte count in front of
    /// them. The body is written in place and moved by the prefix's few bytes, rather than
    /// built in a buffer of its own and copied.
    mutating func closeMessage(startingAt start: Int) {
        let end = bytes.count
        writeUint(UInt64(end - start))
        bytes.moveTail(from: end, to: start)
    }
}
