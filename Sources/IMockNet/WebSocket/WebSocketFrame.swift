/// One WebSocket frame (RFC 6455 §5.2).
///
/// `payload` is always the application data, already unmasked. `maskingKey` records the key
/// the frame carried on the wire (the parser) or the key to apply when encoding (the encoder).
public struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the final fragment of a message. Control frames always have it set.
    public var fin: Bool
    /// Reserved bit 1 (used by extensions such as permessage-deflate; none are negotiated here).
    public var rsv1: Bool
    /// Reserved bit 2.
    public var rsv2: Bool
    /// Reserved bit 3.
    public var rsv3: Bool
    /// What the payload is.
    public var opcode: WebSocketOpcode
    /// The 32-bit masking key in network byte order (`0x37FA213D` is the bytes `37 fa 21 3d`),
    /// or nil for an unmasked frame.
    public var maskingKey: UInt32?
    /// The unmasked payload.
    public var payload: [UInt8]

    /// A frame; the reserved bits default to clear, as every frame here has them.
    public init(
        fin: Bool = true, rsv1: Bool = false, rsv2: Bool = false, rsv3: Bool = false,
        opcode: WebSocketOpcode, maskingKey: UInt32? = nil, payload: [UInt8] = []
    ) {
        self.fin = fin
        self.rsv1 = rsv1
        self.rsv2 = rsv2
        self.rsv3 = rsv3
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }
}
