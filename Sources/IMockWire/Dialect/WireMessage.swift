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

    /// Creates a close.
    public init(code: UInt16, reason: String) {
        self.code = code
        self.reason = reason
    }
}
