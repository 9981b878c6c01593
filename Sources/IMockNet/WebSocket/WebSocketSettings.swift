import IMockCommon

/// What every WebSocket connection of one end shares: its role, its limits and how a client
/// makes its masking keys. Held by reference — one object per server, not a copy in every
/// connection's state machine, parser and assembler (~50 bytes a connection; docs/BENCHMARKS.md,
/// `fleet`).
public final class WebSocketSettings: Sendable {
    /// Which end of the connection this is; decides masking and who closes TCP.
    public let role: WebSocketRole
    /// The largest accepted frame payload (larger: 1009).
    public let maxFrameSize: Int
    /// The largest accepted message, all fragments together (larger: 1009).
    public let maxMessageSize: Int
    /// The 4-byte masking key of each frame a client sends (unused by a server).
    let maskingKeyGenerator: @Sendable () -> [UInt8]

    /// Settings for one end; a negative limit counts as 0.
    public init(
        role: WebSocketRole, maxFrameSize: Int = 1 << 20, maxMessageSize: Int = 1 << 20,
        maskingKeyGenerator: @escaping @Sendable () -> [UInt8] = { RandomSource.secure.bytes(4) }
    ) {
        self.role = role
        self.maxFrameSize = max(0, maxFrameSize)
        self.maxMessageSize = max(0, maxMessageSize)
        self.maskingKeyGenerator = maskingKeyGenerator
    }
}
