/// A violation of RFC 6455 by the peer, with the close code to fail the connection with.
public struct WebSocketProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The code to send in the Close frame (1002, 1007 or 1009).
    public var closeCode: WebSocketCloseCode
    /// A short human-readable reason; always fits in a Close frame (at most 123 UTF-8 bytes).
    public var reason: String

    /// An error with the given code and reason.
    public init(closeCode: WebSocketCloseCode, reason: String) {
        self.closeCode = closeCode
        self.reason = reason
    }

    /// The code and reason, for logs.
    public var description: String { "WebSocket protocol error \(closeCode.rawValue): \(reason)" }

    static func protocolError(_ reason: String) -> WebSocketProtocolError {
        WebSocketProtocolError(closeCode: .protocolError, reason: reason)
    }

    static func invalidUTF8(_ reason: String) -> WebSocketProtocolError {
        WebSocketProtocolError(closeCode: .invalidFramePayloadData, reason: reason)
    }

    static func tooBig(_ reason: String) -> WebSocketProtocolError {
        WebSocketProtocolError(closeCode: .messageTooBig, reason: reason)
    }
}
