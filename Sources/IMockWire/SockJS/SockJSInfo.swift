import IMockCore

/// The `GET {base}/info` reply a SockJS client fetches before it opens a session.
public enum SockJSInfo {
    /// The reply's content type.
    public static let contentType = "application/json; charset=UTF-8"

    /// `{"websocket":true,"origins":["*:*"],"cookie_needed":false,"entropy":<entropy>}`: the
    /// WebSocket transport is available, so the client needs no fallback. `entropy` should be a
    /// fresh random number for each request (the protocol's range is 0 to 2^32 − 1).
    public static func body(entropy: UInt32) -> String {
        JSONValue.object([
            ("websocket", .bool(true)),
            ("origins", .array([.string("*:*")])),
            ("cookie_needed", .bool(false)),
            ("entropy", .int(Int64(entropy))),
        ]).encodedString
    }
}
