/// Serialises WebSocket frames to wire bytes (RFC 6455 §5.2).
public enum WebSocketFrameEncoder {
    /// The wire bytes of `frame`: its header with the minimal length encoding (7-bit, 16-bit
    /// after 126, or 64-bit after 127, network byte order), then the masking key and the
    /// masked payload when `frame.maskingKey` is set, else the payload as is.
    public static func encode(_ frame: WebSocketFrame) -> [UInt8] {
        encode(
            opcode: frame.opcode, payload: frame.payload, fin: frame.fin, maskingKey: frame.maskingKey,
            rsv1: frame.rsv1, rsv2: frame.rsv2, rsv3: frame.rsv3)
    }

    /// The wire bytes of one frame carrying `payload` (unmasked application data).
    public static func encode(
        opcode: WebSocketOpcode, payload: some Collection<UInt8>, fin: Bool = true,
        maskingKey: UInt32? = nil, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false
    ) -> [UInt8] {
        let length = payload.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerLength(payloadLength: length, masked: maskingKey != nil) + length)
        var first = opcode.rawValue
        if fin { first |= 0x80 }
        if rsv1 { first |= 0x40 }
        if rsv2 { first |= 0x20 }
        if rsv3 { first |= 0x10 }
        bytes.append(first)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch length {
        case 0...125:
            bytes.append(maskBit | UInt8(length))
        case 126...0xFFFF:
            bytes.append(maskBit | 126)
            appendBigEndian(UInt64(length), byteCount: 2, to: &bytes)
        default:
            bytes.append(maskBit | 127)
            appendBigEndian(UInt64(length), byteCount: 8, to: &bytes)
        }
        guard let maskingKey else {
            bytes.append(contentsOf: payload)
            return bytes
        }
        appendBigEndian(UInt64(maskingKey), byteCount: 4, to: &bytes)
        var masked = Array(payload)
        WebSocketMasking.apply(key: maskingKey, to: &masked)
        bytes.append(contentsOf: masked)
        return bytes
    }

    /// The size of a frame header for a payload of `payloadLength` bytes.
    static func headerLength(payloadLength: Int, masked: Bool) -> Int {
        let lengthBytes = payloadLength <= 125 ? 0 : payloadLength <= 0xFFFF ? 2 : 8
        return 2 + lengthBytes + (masked ? 4 : 0)
    }

    private static func appendBigEndian(_ value: UInt64, byteCount: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
