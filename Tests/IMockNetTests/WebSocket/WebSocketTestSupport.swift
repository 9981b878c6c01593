@testable import IMockNet

/// Helpers shared by the WebSocket tests.
enum WS {
    /// The RFC 6455 §5.7 masking key `37 fa 21 3d`.
    static let rfcKey: UInt32 = 0x37FA_213D

    /// A plain byte-by-byte masking, independent of the production 8-byte loop.
    static func mask(_ payload: [UInt8], key: [UInt8]) -> [UInt8] {
        payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    /// A masked frame as a client would send it, built by hand.
    static func clientFrame(
        _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, key: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    ) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        bytes += lengthBytes(payload.count, maskBit: 0x80)
        return bytes + key + mask(payload, key: key)
    }

    /// An unmasked frame as a server would send it, built by hand.
    static func serverFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        [(fin ? 0x80 : 0) | opcode] + lengthBytes(payload.count, maskBit: 0) + payload
    }

    /// A frame as the peer of `role` sends it (masked towards a server).
    static func frame(to role: WebSocketRole, _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        switch role {
        case .server: clientFrame(opcode, payload, fin: fin)
        case .client: serverFrame(opcode, payload, fin: fin)
        }
    }

    static func lengthBytes(_ count: Int, maskBit: UInt8) -> [UInt8] {
        if count <= 125 { return [maskBit | UInt8(count)] }
        if count <= 0xFFFF { return [maskBit | 126, UInt8(count >> 8), UInt8(count & 0xFF)] }
        return [maskBit | 127] + (0..<8).reversed().map { UInt8((count >> ($0 * 8)) & 0xFF) }
    }

    /// A close payload: big-endian code then the reason.
    static func closePayload(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }

    /// Parses every complete frame in `bytes`.
    static func parseAll(_ bytes: [UInt8], role: WebSocketRole, maxFrameSize: Int = 1 << 24) throws -> [WebSocketFrame] {
        var parser = WebSocketFrameParser(role: role, maxFrameSize: maxFrameSize)
        parser.feed(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try parser.next() { frames.append(frame) }
        return frames
    }

    /// The first error the parser reports for `bytes`, or nil.
    static func parseError(_ bytes: [UInt8], role: WebSocketRole, maxFrameSize: Int = 1 << 20) -> WebSocketProtocolError? {
        var parser = WebSocketFrameParser(role: role, maxFrameSize: maxFrameSize)
        parser.feed(bytes)
        do {
            while try parser.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    /// A deterministic payload of `count` bytes.
    static func payload(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    /// A server machine, and a client machine whose masking key is always `01 02 03 04`.
    static func machine(_ role: WebSocketRole, maxFrameSize: Int = 1 << 20, maxMessageSize: Int = 1 << 20)
        -> WebSocketStateMachine
    {
        WebSocketStateMachine(
            role: role, maxFrameSize: maxFrameSize, maxMessageSize: maxMessageSize,
            maskingKeyGenerator: { [1, 2, 3, 4] })
    }

    static let fixedKey: [UInt8] = [1, 2, 3, 4]

    /// The bytes a machine of `role` writes for a frame (the client masks with `fixedKey`).
    static func written(by role: WebSocketRole, _ opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        switch role {
        case .server: serverFrame(opcode, payload)
        case .client: clientFrame(opcode, payload, key: fixedKey)
        }
    }
}
