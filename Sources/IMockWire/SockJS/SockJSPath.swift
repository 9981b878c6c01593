/// The SockJS URL a request targets, below the service's base path (sockjs-protocol 0.3.3).
///
/// Only what the WebSocket transport needs is recognised; every other path (the HTTP
/// fallback transports, iframes, malformed session URLs) is nil.
public enum SockJSPath: Sendable, Equatable {
    /// `{base}` or `{base}/`: the greeting.
    case greeting
    /// `{base}/info`: the capabilities (``SockJSInfo``).
    case info
    /// `{base}/{server}/{session}/websocket`: a session over the WebSocket transport.
    case websocket(server: String, session: String)
    /// `{base}/websocket`: raw WebSocket without SockJS framing.
    case rawWebSocket

    /// The longest server or session id accepted.
    public static let maximumIDLength = 128

    /// The SockJS URL `path` targets under `base` (e.g. `/ws`; a trailing slash is ignored), or
    /// nil. A query string (`/ws/info?t=1700000000000`) is ignored. Server and session ids may
    /// be any non-empty text without `.` or `/` (the protocol's test suite accepts `a`, `_`,
    /// `abcdefgh_i-j%20`); clients use three digits and eight random characters.
    public init?(path: String, base: String) {
        let path = path.prefix { $0 != "?" }
        let base = base.hasSuffix("/") ? base.dropLast() : Substring(base)
        guard path.hasPrefix(base) else { return nil }
        let rest = path.dropFirst(base.count)
        switch rest {
        case "", "/": self = .greeting
        case "/info": self = .info
        case "/websocket": self = .rawWebSocket
        default:
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0].isEmpty, parts[3] == "websocket",
                  Self.isValidID(parts[1]), Self.isValidID(parts[2])
            else { return nil }
            self = .websocket(server: String(parts[1]), session: String(parts[2]))
        }
    }

    private static func isValidID(_ id: Substring) -> Bool {
        !id.isEmpty && id.utf8.count <= maximumIDLength && !id.contains(".")
    }
}
