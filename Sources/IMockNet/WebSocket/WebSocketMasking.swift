/// The XOR masking of RFC 6455 §5.3; masking and unmasking are the same operation.
enum WebSocketMasking {
    /// XORs `bytes` in place with `key` (network byte order), starting at key byte 0.
    ///
    /// Works eight bytes at a time with one 64-bit XOR; the key pattern is laid out in
    /// memory byte by byte, so the result does not depend on the host's endianness.
    static func apply(key: UInt32, to bytes: inout [UInt8]) {
        let keyBytes: (UInt8, UInt8, UInt8, UInt8) = (
            UInt8(truncatingIfNeeded: key >> 24), UInt8(truncatingIfNeeded: key >> 16),
            UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key)
        )
        var pattern: UInt64 = 0
        withUnsafeMutableBytes(of: &pattern) { raw in
            for offset in stride(from: 0, to: 8, by: 4) {
                raw[offset] = keyBytes.0
                raw[offset + 1] = keyBytes.1
                raw[offset + 2] = keyBytes.2
                raw[offset + 3] = keyBytes.3
            }
        }
        let widePattern = pattern
        bytes.withUnsafeMutableBytes { raw in
            var index = 0
            let count = raw.count
            while index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                raw.storeBytes(of: word ^ widePattern, toByteOffset: index, as: UInt64.self)
                index += 8
            }
            withUnsafeBytes(of: widePattern) { patternBytes in
                while index < count {
                    raw[index] ^= patternBytes[index & 7]
                    index += 1
                }
            }
        }
    }

    /// A masking key from four bytes in wire order; missing bytes count as zero and extra
    /// bytes are ignored, so a faulty key generator cannot crash the connection.
    static func key(from bytes: [UInt8]) -> UInt32 {
        var key: UInt32 = 0
        for index in 0..<4 {
            key = key << 8 | UInt32(index < bytes.count ? bytes[index] : 0)
        }
        return key
    }
}
