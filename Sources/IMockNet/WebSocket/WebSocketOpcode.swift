/// The opcode of a WebSocket frame (RFC 6455 §5.2). Only the six defined opcodes exist;
/// the reserved values 3–7 and 11–15 are rejected by the parser.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    /// 0x0: continues a fragmented message.
    case continuation = 0x0
    /// 0x1: the first frame of a UTF-8 text message.
    case text = 0x1
    /// 0x2: the first frame of a binary message.
    case binary = 0x2
    /// 0x8: starts or answers the closing handshake.
    case close = 0x8
    /// 0x9: asks the peer for a pong.
    case ping = 0x9
    /// 0xA: answers a ping (or is an unsolicited heartbeat).
    case pong = 0xA

    /// Whether this is a control frame (close, ping, pong): at most 125 bytes, never fragmented.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
