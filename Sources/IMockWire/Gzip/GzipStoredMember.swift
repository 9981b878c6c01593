import CZlib

/// A gzip member of stored deflate blocks (RFC 1952 around RFC 1951 §3.2.4), written by hand:
/// what zlib writes at level 0, without a stream to set up and tear down for every frame
/// (zlib's setup was most of the cost of storing a frame of a few hundred bytes).
enum GzipStoredMember {
    /// The most one stored block holds.
    static let maximumBlock = 65_535

    /// `data` as one member: the header (no name, no time; "fastest" as zlib marks level 0;
    /// Unix), stored blocks of at most 65,535 bytes, the CRC-32 and the length modulo 2³².
    static func write(_ data: [UInt8]) -> [UInt8] {
        let blocks = max(1, (data.count + maximumBlock - 1) / maximumBlock)
        var out: [UInt8] = []
        out.reserveCapacity(10 + 5 * blocks + data.count + 8)
        out += [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x03]
        var start = 0
        for block in 0..<blocks {
            let end = min(data.count, start + maximumBlock)
            let length = UInt16(end - start)
            out.append(block == blocks - 1 ? 0x01 : 0x00)  // BFINAL on the last; BTYPE 00
            appendLittleEndian(UInt32(length) | UInt32(~length) << 16, to: &out)  // LEN, NLEN
            out += data[start..<end]
            start = end
        }
        let crc = data.withUnsafeBufferPointer { crc32_z(0, $0.baseAddress, $0.count) }
        appendLittleEndian(UInt32(truncatingIfNeeded: crc), to: &out)
        appendLittleEndian(UInt32(truncatingIfNeeded: data.count), to: &out)
        return out
    }

    private static func appendLittleEndian(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: UInt32(0), to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}
