/// The protobuf varint rule, in one place: at most 10 bytes, 7 bits each, low group first; the
/// 10th byte at most 1 (a 64-bit value has one bit left for it). ``ProtobufReader`` reads
/// varints through it.
enum ProtobufVarint {
    /// What reading a varint found.
    enum Read {
        case value(UInt64)
        /// The bytes ended inside the varint.
        case truncated
        /// A 10th byte above 1.
        case malformed
    }

    /// Reads the varint at `index` in `bytes[..<end]`, moving `index` past what it read.
    @inline(__always)
    static func read(_ bytes: [UInt8], at index: inout Int, end: Int) -> Read {
        var result: UInt64 = 0
        for position in 0..<10 {
            guard index < end else { return .truncated }
            let byte = bytes[index]
            index += 1
            if position == 9 {
                guard byte <= 1 else { return .malformed }
                return .value(result | UInt64(byte) << 63)
            }
            result |= UInt64(byte & 0x7F) << UInt64(7 * position)
            if byte & 0x80 == 0 { return .value(result) }
        }
        return .malformed  // not reached: the 10th byte always returns
    }
}
