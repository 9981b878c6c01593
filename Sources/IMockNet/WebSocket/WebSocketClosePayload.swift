/// The body of a Close frame: an optional 2-byte status code then a UTF-8 reason (RFC 6455 §5.5.1).
struct WebSocketClosePayload: Equatable, Sendable {
    /// The largest reason that fits in a control frame after the 2-byte code.
    static let maxReasonBytes = 123

    /// The code, or nil for an empty Close frame.
    var code: WebSocketCloseCode?
    var reason: String

    /// Parses a received Close frame payload.
    /// - Throws: 1002 for a 1-byte payload or a code not valid on the wire, 1007 for a reason
    ///   that is not UTF-8.
    init(parsing payload: [UInt8]) throws(WebSocketProtocolError) {
        if payload.isEmpty {
            code = nil
            reason = ""
            return
        }
        guard payload.count >= 2 else { throw .protocolError("close frame with a 1-byte payload") }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnWire else { throw .protocolError("invalid close code \(code.rawValue)") }
        let reasonBytes = payload[2...]
        guard UTF8StreamValidator.isValid(reasonBytes) else { throw .invalidUTF8("close reason is not valid UTF-8") }
        self.code = code
        self.reason = String(decoding: reasonBytes, as: UTF8.self)
    }

    /// A payload to send. A code that may not be sent (1005, 1006, 1015, ...) gives an empty
    /// body; the reason is cut to 123 bytes at a character boundary.
    init(code: WebSocketCloseCode?, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The wire bytes of this payload.
    var bytes: [UInt8] {
        guard let code, code.isValidOnWire else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 + min(reason.utf8.count, Self.maxReasonBytes))
        bytes.append(UInt8(truncatingIfNeeded: code.rawValue >> 8))
        bytes.append(UInt8(truncatingIfNeeded: code.rawValue))
        let utf8 = reason.utf8
        guard utf8.count > Self.maxReasonBytes else {
            bytes.append(contentsOf: utf8)  // the common case: no copy of the reason in between
            return bytes
        }
        bytes.append(contentsOf: Self.truncatedUTF8(reason, maxBytes: Self.maxReasonBytes))
        return bytes
    }

    /// The UTF-8 bytes of `text`, cut to at most `maxBytes` without splitting a code point.
    static func truncatedUTF8(_ text: String, maxBytes: Int) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.count > maxBytes else { return utf8 }
        var end = maxBytes
        while end > 0 && utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(utf8[..<end])
    }
}
