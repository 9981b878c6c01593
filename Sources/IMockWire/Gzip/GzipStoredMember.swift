import CZlib

/// A gzip member of stored deflate blocks (RFC 1952 around RFC 1951 §3.2.4), written and read by
/// hand: what zlib writes at level 0, without a stream to set up and tear down for every frame
/// (zlib's setup was most of the cost of storing or reading a frame of a few hundred bytes).
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

    /// The bytes in front of the data of a one-block member: the header and the block's
    /// header (BFINAL, BTYPE 00, LEN, NLEN).
    static let singleBlockPrefix = 10 + 5

    /// A member of one stored block around what `body` appends to `out`: `out` must hold the
    /// ``singleBlockPrefix`` bytes ``beginSingleBlock(capacity:)`` gave it, and `body` writes
    /// the data after them in place, so the data is not built apart and copied in. The same
    /// bytes as ``write(_:)`` of that data, for data of at most ``maximumBlock`` bytes.
    static func beginSingleBlock(capacity: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(singleBlockPrefix + capacity + 8)
        out += [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x03, 0x01, 0x00, 0x00, 0xFF, 0xFF]
        return out
    }

    /// Completes a member begun with ``beginSingleBlock(capacity:)`` once its data follows the
    /// prefix: LEN and NLEN, the CRC-32 and the length.
    /// - Precondition: the data is at most ``maximumBlock`` bytes.
    static func endSingleBlock(_ out: inout [UInt8]) {
        let count = out.count - singleBlockPrefix
        precondition(count <= maximumBlock, "GzipStoredMember: one block holds at most \(maximumBlock) bytes")
        let length = UInt16(count)
        out[11] = UInt8(truncatingIfNeeded: length)
        out[12] = UInt8(truncatingIfNeeded: length >> 8)
        out[13] = ~out[11]
        out[14] = ~out[12]
        let crc = out.withUnsafeBufferPointer { crc32_z(0, $0.baseAddress! + singleBlockPrefix, count) }
        appendLittleEndian(UInt32(truncatingIfNeeded: crc), to: &out)
        appendLittleEndian(UInt32(truncatingIfNeeded: count), to: &out)
    }

    private static func appendLittleEndian(_ value: UInt32, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    /// The data of `bytes` when it is exactly one valid member of stored blocks (no optional
    /// header fields, every block stored, CRC-32 and length right) of at most `limit` bytes;
    /// nil for anything else, valid or not, which zlib then reads (and reports on).
    static func read(_ bytes: [UInt8], limit: Int) -> [UInt8]? {
        guard bytes.count >= 10 + 5 + 8, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 0x08, bytes[3] == 0 else {
            return nil
        }
        if bytes[10] & 0b111 == 0b001 { return readSingleBlock(bytes, limit: limit) }
        var data: [UInt8] = []
        var position = 10
        var final = false
        while !final {
            guard position + 5 <= bytes.count, bytes[position] & 0b110 == 0 else { return nil }
            final = bytes[position] & 1 == 1
            let length = Int(bytes[position + 1]) | Int(bytes[position + 2]) << 8
            let complement = Int(bytes[position + 3]) | Int(bytes[position + 4]) << 8
            position += 5
            guard length ^ complement == 0xFFFF, position + length <= bytes.count, data.count + length <= limit else {
                return nil
            }
            data += bytes[position..<position + length]
            position += length
        }
        guard position + 8 == bytes.count else { return nil }
        let crc = data.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32_z(0, $0.baseAddress, $0.count)) }
        guard littleEndian(bytes, at: position) == crc,
            littleEndian(bytes, at: position + 4) == UInt32(truncatingIfNeeded: data.count)
        else { return nil }
        return data
    }

    /// ``read(_:limit:)`` of a member whose first block is its last (every frame under 64 KiB
    /// that ``write(_:)`` or ``endSingleBlock(_:)`` made): the data copied out once and the
    /// trailer read in place.
    private static func readSingleBlock(_ bytes: [UInt8], limit: Int) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { buffer -> [UInt8]? in
            let length = Int(buffer[11]) | Int(buffer[12]) << 8
            let complement = Int(buffer[13]) | Int(buffer[14]) << 8
            let start = singleBlockPrefix
            guard length ^ complement == 0xFFFF, length <= limit, start + length + 8 == buffer.count else { return nil }
            let data = UnsafeBufferPointer(rebasing: buffer[start..<(start + length)])
            let crc = UInt32(truncatingIfNeeded: crc32_z(0, data.baseAddress, length))
            let trailer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[(start + length)...])
            guard UInt32(littleEndian: trailer.loadUnaligned(as: UInt32.self)) == crc,
                UInt32(littleEndian: trailer.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) == UInt32(truncatingIfNeeded: length)
            else { return nil }
            return Array(data)
        }
    }

    private static func littleEndian(_ bytes: [UInt8], at position: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[position + $1]) << (8 * UInt32($1)) }
    }
}
