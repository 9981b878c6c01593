/// Reassembles data frames (text, binary, continuation) into whole messages
/// (RFC 6455 §5.4), validating text incrementally as UTF-8 and enforcing a size limit.
struct WebSocketMessageAssembler: Sendable {
    /// A complete message.
    enum Message: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
    }

    /// The message being assembled, behind one reference that only a fragmented message
    /// allocates: inline, its state cost every connection four words (docs/BENCHMARKS.md, `fleet`).
    private var partial: Partial?

    private final class Partial: @unchecked Sendable {
        // @unchecked: only mutated through a uniquely referenced assembler (copy on write).
        let opcode: WebSocketOpcode
        var bytes: [UInt8]
        var validator: UTF8StreamValidator

        init(opcode: WebSocketOpcode, bytes: [UInt8], validator: UTF8StreamValidator) {
            self.opcode = opcode
            self.bytes = bytes
            self.validator = validator
        }

        func copy() -> Partial { Partial(opcode: opcode, bytes: bytes, validator: validator) }
    }

    init() {}

    /// Whether a fragmented message has started and not yet ended.
    var isAssembling: Bool { partial != nil }

    /// The partial message, copied first when another value shares it.
    private mutating func uniquePartial() -> Partial? {
        guard partial != nil else { return nil }
        if !isKnownUniquelyReferenced(&partial!) { partial = partial!.copy() }
        return partial
    }

    /// Takes one data frame; returns the message it completes, if any.
    /// - Throws: 1002 for a continuation without a started message or a new message inside
    ///   an unfinished one, 1007 for invalid UTF-8 in a text message, 1009 when the message
    ///   would exceed `maxMessageSize` (a negative one counts as 0).
    mutating func receive(_ frame: WebSocketFrame, maxMessageSize: Int) throws(WebSocketProtocolError) -> Message? {
        let maxMessageSize = max(0, maxMessageSize)
        let opcode: WebSocketOpcode
        switch frame.opcode {
        case .continuation:
            guard let partial else { throw .protocolError("continuation frame without a started message") }
            opcode = partial.opcode
        case .text, .binary:
            if partial != nil { throw .protocolError("new data frame inside a fragmented message") }
            opcode = frame.opcode
        case .close, .ping, .pong:
            throw .protocolError("control frame passed to the message assembler")
        }
        let started = uniquePartial()
        if frame.payload.count > maxMessageSize - (started?.bytes.count ?? 0) {
            throw .tooBig("message exceeds \(maxMessageSize) bytes")
        }
        var validator = started?.validator ?? UTF8StreamValidator()
        if opcode == .text && !validator.validate(frame.payload) {
            throw .invalidUTF8("text message is not valid UTF-8")
        }
        guard frame.fin else {
            if let started {
                started.bytes.append(contentsOf: frame.payload)
                started.validator = validator
            } else {
                partial = Partial(opcode: opcode, bytes: frame.payload, validator: validator)
            }
            return nil
        }
        let message: [UInt8]
        if let started, !started.bytes.isEmpty {
            started.bytes.append(contentsOf: frame.payload)
            message = started.bytes
        } else {
            message = frame.payload
        }
        let complete = validator.isAtBoundary
        reset()
        guard opcode == .text else { return .binary(message) }
        guard complete else { throw .invalidUTF8("text message ends inside a UTF-8 sequence") }
        return .text(String(decoding: message, as: UTF8.self))
    }

    /// Discards any partial message.
    mutating func reset() {
        partial = nil
    }
}
