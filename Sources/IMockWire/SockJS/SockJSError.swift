/// Why a SockJS frame or message is refused.
public enum SockJSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A client frame that is not JSON, or not a string or an array of strings.
    case brokenFraming(String)
    /// A frame longer than the parser's limit (bytes).
    case frameTooLarge(length: Int, limit: Int)
    /// A client frame carrying more messages than the parser's limit.
    case tooManyMessages(count: Int, limit: Int)
    /// A server frame that is not `o`, `h`, `a[…]` or `c[code,"reason"]`.
    case malformedServerFrame(String)

    /// The frame a server sends before closing the connection over this error
    /// (sockjs-node closes a WebSocket session with broken JSON as 3000 "Broken framing.").
    public var closeFrame: SockJSFrame { .close(code: 3000, reason: "Broken framing.") }

    /// A one-line explanation, for logs.
    public var description: String {
        switch self {
        case .brokenFraming(let why): "sockjs: broken framing: \(why)"
        case .frameTooLarge(let length, let limit): "sockjs: frame of \(length) bytes exceeds \(limit)"
        case .tooManyMessages(let count, let limit): "sockjs: \(count) messages in one frame exceed \(limit)"
        case .malformedServerFrame(let why): "sockjs: malformed server frame: \(why)"
        }
    }
}
