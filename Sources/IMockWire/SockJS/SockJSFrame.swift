import IMockCore

/// A frame a SockJS server sends (sockjs-protocol 0.3.3 "Framing accepted by the client"); over
/// the WebSocket transport each frame is one text message.
public enum SockJSFrame: Sendable, Equatable {
    /// `o`: sent once, first, when the session opens.
    case open
    /// `h`: a heartbeat, by default every 25 s without other traffic.
    case heartbeat
    /// `a["…",…]`: messages for the application (Agora Chat: base64 MSync), at least one.
    case messages([String])
    /// `c[code,"reason"]`: sent before the server closes the session, e.g. `c[3000,"Go away!"]`.
    case close(code: Int, reason: String)

    /// The largest server frame ``init(parsing:)`` reads.
    public static let maximumFrameLength = 1 << 20

    /// The frame's text.
    public var text: String {
        switch self {
        case .open: "o"
        case .heartbeat: "h"
        case .messages(let messages): "a" + SockJSClientFrame.text(messages)
        case .close(let code, let reason): "c[\(code),\(SockJSStringEscaping.quoted(reason))]"
        }
    }

    /// Reads a server frame, as a SockJS client does.
    /// - Throws: ``SockJSError/malformedServerFrame(_:)`` or ``SockJSError/frameTooLarge(length:limit:)``.
    public init(parsing text: String) throws(SockJSError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumFrameLength else {
            throw .frameTooLarge(length: bytes.count, limit: Self.maximumFrameLength)
        }
        guard let kind = bytes.first else { throw .malformedServerFrame("empty frame") }
        let body = Array(bytes.dropFirst())
        switch (kind, body.isEmpty) {
        case (UInt8(ascii: "o"), true): self = .open
        case (UInt8(ascii: "h"), true): self = .heartbeat
        case (UInt8(ascii: "a"), false):
            guard let messages = (try? JSONValue.parse(body))?.sockJSStrings, !messages.isEmpty else {
                throw .malformedServerFrame("a message frame that is not a non-empty JSON array of strings")
            }
            self = .messages(messages)
        case (UInt8(ascii: "c"), false):
            guard let pair = (try? JSONValue.parse(body))?.arrayValue, pair.count == 2,
                  let code = pair[0].intValue.flatMap({ Int(exactly: $0) }), let reason = pair[1].stringValue
            else { throw .malformedServerFrame("a close frame that is not [code, \"reason\"]") }
            self = .close(code: code, reason: reason)
        default:
            throw .malformedServerFrame("unknown frame type")
        }
    }
}
