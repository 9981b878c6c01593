/// Reassembles data frames (text, binary, continuation) into whole messages
/// (RFC 6455 §5.4), validating text incrementally as UTF-8 and enforcing a size limit.
struct WebSocketMessageAssembler: Sendable {
    /// A complete message.
    enum Message: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
    }

    /// The largest accepted message (sum of its fragments); a larger one is error 1009.
    let maxMessageSize: Int

    private var openOpcode: WebSocketOpcode?
    private var bytes: [UInt8] = []
    private var validator = UTF8StreamValidator()

    init(maxMessageSize: Int) {
        self.maxMessageSize = max(0, maxMessageSize)
    }

    /// Whether a fragmented message has started and not yet ended.
    var isAssembling: Bool { openOpcode != nil }

    /// Takes one data frame; returns the message it completes, if any.
    /// - Throws: 1002 for a continuation without a started message or a new message inside
    ///   an unfinished one, 1007 for invalid UTF-8 in a text message, 1009 when the message
    ///   would exceed `maxMessageSize`.
    mutating func receive(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Message? {
        let opcode: WebSocketOpcode
        switch frame.opcode {
        case .continuation:
            guard let openOpcode else { throw .protocolError("continuation frame without a started message") }
            opcode = openOpcode
        case .text, .binary:
            if openOpcode != nil { throw .protocolError("new data frame inside a fragmented message") }
            opcode = frame.opcode
        case .close, .ping, .pong:
            throw .protocolError("control frame passed to the message assembler")
        }
        if frame.payload.count > maxMessageSize - bytes.count {
            throw .tooBig("message exceeds \(maxMessageSize) bytes")
        }
        if opcode == .text && !validator.validate(frame.payload) {
            throw .invalidUTF8("text message is not valid UTF-8")
        }
        guard frame.fin else {
            openOpcode = opcode
            bytes.append(contentsOf: frame.payload)
            return nil
        }
        let message: [UInt8]
        if bytes.isEmpty {
            message = frame.payload
        } else {
            bytes.append(contentsOf: frame.payload)
            message = bytes
        }
        let complete = validator.isAtBoundary
        reset()
        guard opcode == .text else { return .binary(message) }
        guard complete else { throw .invalidUTF8("text message ends inside a UTF-8 sequence") }
        return .text(String(decoding: message, as: UTF8.self))
    }

    /// Discards any partial message.
    mutating func reset() {
        openOpcode = nil
        bytes = []
        validator = UTF8StreamValidator()
    }
}
