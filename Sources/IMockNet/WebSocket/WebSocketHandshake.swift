import IMockCommon
/// The WebSocket opening handshake (RFC 6455 §4): the key/accept computation shared by both
/// ends. The server side is in `WebSocketHandshake+Server.swift`, the client side in
/// `WebSocketHandshake+Client.swift`.
public enum WebSocketHandshake {
    /// The GUID appended to the client's key before hashing (RFC 6455 §1.3).
    public static let magicGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The only protocol version defined by RFC 6455.
    public static let webSocketVersion = "13"

    /// The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key`:
    /// base64(SHA-1(key + GUID)). The key is used exactly as sent (after trimming by the caller).
    public static func acceptKey(for clientKey: String) -> String {
        Base64.encode(SHA1.digest(Array((clientKey + magicGUID).utf8)))
    }

    /// A fresh `Sec-WebSocket-Key`: base64 of 16 random bytes.
    public static func randomKey() -> String {
        Base64.encode(RandomSource.secure.bytes(16))
    }
}
