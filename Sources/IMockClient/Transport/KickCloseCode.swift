import IMockCore

/// How the server's dialects close a connection whose session they end: with `4000 + code`
/// (IMockWire's `CloseCode.forCode`: 4206, 4217, 4108 …), or 4999 for a code of 1000 or more,
/// where WebSocket application codes end; the only such code is OpenIM's 2002. Each
/// ``ClientWire`` reads its dialect's closes; all three read them this way.
enum KickCloseCode {
    /// The session end's code of `closeCode`, nil for a close that ends no session (1000,
    /// 1001, 1006, no close frame …).
    static func sessionEndCode(of closeCode: UInt16?) -> Int? {
        guard let closeCode, (4000...4999).contains(closeCode) else { return nil }
        return closeCode == 4999 ? OpenIMKickCode.kickOnlineMessage.rawValue : Int(closeCode) - 4000
    }
}
