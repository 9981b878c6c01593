/// An incremental parser of WebSocket frames (RFC 6455 §5.2) for one direction of a connection.
///
/// Feed it bytes as they arrive with ``feed(_:)`` and pull complete frames with ``next()``
/// until it returns nil. Every check that the header allows is made as soon as the header
/// bytes are there, so an oversized frame is refused before its payload arrives.
/// No extensions are supported, so any reserved bit is an error.
///
/// After an error the parser is failed: ``next()`` throws the same error again.
public struct WebSocketFrameParser: Sendable {
    /// Whose frames this parser reads: a `.server` expects masked frames, a `.client` unmasked ones.
    public var role: WebSocketRole { settings.role }
    /// The largest payload accepted in one frame; a larger one is error 1009.
    public var maxFrameSize: Int { settings.maxFrameSize }

    /// The role and limits, shared with the connection's state machine.
    let settings: WebSocketSettings
    /// Received bytes; those before `readIndex` are already consumed.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// The error that failed the parser, behind one reference (a word, not three, in every
    /// connection that never fails).
    private var failure: Failure?

    private final class Failure: Sendable {
        let error: WebSocketProtocolError

        init(_ error: WebSocketProtocolError) { self.error = error }
    }

    /// A parser for frames received by an endpoint of `role`.
    public init(role: WebSocketRole, maxFrameSize: Int) {
        self.init(settings: WebSocketSettings(role: role, maxFrameSize: maxFrameSize))
    }

    /// A parser for frames received by an endpoint of these settings (`maxFrameSize` applies).
    init(settings: WebSocketSettings) {
        self.settings = settings
    }

    /// The number of received bytes not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes; an array arriving when nothing is buffered is kept as it is,
    /// without a copy.
    public mutating func feed(_ bytes: [UInt8]) {
        guard buffer.isEmpty else {
            compactIfWorthwhile()
            buffer.append(contentsOf: bytes)
            return
        }
        buffer = bytes
        readIndex = 0
    }

    /// The next complete frame, with its payload unmasked, or nil when more bytes are needed.
    /// - Throws: the first protocol violation found; 1002 for malformed frames, 1009 for a
    ///   frame over `maxFrameSize`.
    public mutating func next() throws(WebSocketProtocolError) -> WebSocketFrame? {
        if let failure { throw failure.error }
        do {
            return try parseFrame()
        } catch {
            failure = Failure(error)
            throw error
        }
    }

    private mutating func parseFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
        let available = buffer.count - readIndex
        guard available >= 1 else { return nil }
        let first = buffer[readIndex]
        if first & 0x70 != 0 {
            throw .protocolError("reserved bits set without a negotiated extension")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .protocolError("reserved opcode \(first & 0x0F)")
        }
        let fin = first & 0x80 != 0
        if opcode.isControl && !fin {
            throw .protocolError("fragmented control frame")
        }
        guard available >= 2 else { return nil }
        let second = buffer[readIndex + 1]
        let masked = second & 0x80 != 0
        switch (role, masked) {
        case (.server, false): throw .protocolError("unmasked frame from client")
        case (.client, true): throw .protocolError("masked frame from server")
        default: break
        }
        let shortLength = Int(second & 0x7F)
        if opcode.isControl && shortLength > 125 {
            throw .protocolError("control frame payload over 125 bytes")
        }

        var cursor = readIndex + 2
        let payloadLength: Int
        switch shortLength {
        case 126:
            guard available >= 4 else { return nil }
            let length = readBigEndian(at: cursor, byteCount: 2)
            if length < 126 { throw .protocolError("non-minimal 16-bit payload length") }
            payloadLength = Int(length)
            cursor += 2
        case 127:
            guard available >= 10 else { return nil }
            let length = readBigEndian(at: cursor, byteCount: 8)
            if length & (1 << 63) != 0 { throw .protocolError("64-bit payload length with the top bit set") }
            if length <= 0xFFFF { throw .protocolError("non-minimal 64-bit payload length") }
            // Any 63-bit value fits in Int on 64-bit platforms; clamp elsewhere (still over the limit).
            payloadLength = Int(exactly: length) ?? Int.max
            cursor += 8
        default:
            payloadLength = shortLength
        }
        if payloadLength > maxFrameSize {
            throw .tooBig("frame payload of \(payloadLength) bytes exceeds \(maxFrameSize)")
        }

        var maskingKey: UInt32?
        if masked {
            guard buffer.count - cursor >= 4 else { return nil }
            maskingKey = UInt32(truncatingIfNeeded: readBigEndian(at: cursor, byteCount: 4))
            cursor += 4
        }
        guard buffer.count - cursor >= payloadLength else { return nil }
        var payload = Array(buffer[cursor..<(cursor + payloadLength)])
        if let maskingKey { WebSocketMasking.apply(key: maskingKey, to: &payload) }
        readIndex = cursor + payloadLength
        if readIndex == buffer.count {
            // Released, not kept: an idle connection holds no buffer (a fleet of them adds up).
            buffer = []
            readIndex = 0
        }
        return WebSocketFrame(fin: fin, opcode: opcode, maskingKey: maskingKey, payload: payload)
    }

    private func readBigEndian(at index: Int, byteCount: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in 0..<byteCount { value = value << 8 | UInt64(buffer[index + offset]) }
        return value
    }

    /// Drops consumed bytes once they outnumber the unread ones, so each byte is moved
    /// at most a constant number of times on average (no quadratic behaviour).
    private mutating func compactIfWorthwhile() {
        guard readIndex > 0 else { return }
        if readIndex >= buffer.count - readIndex {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
