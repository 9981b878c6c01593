/// One WebSocket message as a dialect reads or writes it.
public enum WireMessage: Sendable, Equatable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary([UInt8])
}

/// A WebSocket close a dialect asks for: code and reason (≤ 123 bytes of UTF-8).
public struct WireClose: Sendable, Equatable {
    /// The close code.
    public var code: UInt16
    /// The reason.
    public var reason: String
    /// How long (real milliseconds) the server waits after the messages before it closes: a
    /// client that handles messages asynchronously (the Easemob Web SDK) must have read the
    /// goodbye before it sees the close. 0: at once.
    public var lingerMs: Int
    /// A message that says the close inside the protocol (SockJS's `c[code,"reason"]`): sent
    /// with the close, after the linger — never with the goodbye, which it would overtake.
    public var announcement: WireMessage?

    /// Creates a close.
    public init(code: UInt16, reason: String, lingerMs: Int = 0, announcement: WireMessage? = nil) {
        self.code = code
        self.reason = reason
        self.lingerMs = max(0, lingerMs)
        self.announcement = announcement
    }
}
