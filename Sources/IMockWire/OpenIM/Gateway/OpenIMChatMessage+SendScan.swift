import IMockCommon

extension OpenIMChatMessage {
    /// What a 1003 send asks of the engine — the recipient, the client's id, the text — read in
    /// one pass over its `MsgData`: only those strings are made (the others are checked as
    /// UTF-8), and the text is read inside the content. Nil unless the send is a 1:1 text that
    /// ``OpenIMPB/MsgData/decoded(_:)`` and ``text(of:)`` would read as the same three — then
    /// they read it, or say why it is refused. Every message the gateway is sent.
    static func scannedSend(_ bytes: [UInt8]) -> (recvID: String, clientMsgID: String, text: String)? {
        guard bytes.count <= ProtobufLimits.standard.maximumMessageSize else { return nil }
        var scan = OpenIMProtobufScan(bytes, 0..<bytes.count)
        var recvID = ""
        var clientMsgID = ""
        var content = 0..<0
        var sessionType: Int32 = 0
        var contentType: Int32 = 0
        while !scan.isAtEnd {
            guard let key = scan.key() else { return nil }
            let field = key >> 3
            switch key & 7 {
            case 2:
                guard let range = scan.lengthDelimited() else { return nil }
                switch field {
                case 12: content = range
                case 2:
                    guard let string = String(validUTF8: bytes[range]) else { return nil }
                    recvID = string
                case 4:
                    guard let string = String(validUTF8: bytes[range]) else { return nil }
                    clientMsgID = string
                case 1, 3, 5, 7, 8, 22, 23:
                    guard bytes.withUnsafeBufferPointer({ ProtobufString.isValid(UnsafeBufferPointer(rebasing: $0[range])) }) else {
                        return nil
                    }
                default: return nil
                }
            case 0:
                guard let raw = scan.varint() else { return nil }
                switch field {
                case 9: sessionType = Int32(truncatingIfNeeded: raw)
                case 11: contentType = Int32(truncatingIfNeeded: raw)
                case 6, 10, 14, 15, 16, 17, 18: break
                default: return nil
                }
            default:
                return nil
            }
        }
        guard sessionType == singleChat, contentType == text, !recvID.isEmpty else { return nil }
        let plain = bytes.withUnsafeBufferPointer { plainText(ofContent: UnsafeBufferPointer(rebasing: $0[content])) }
        guard let plain else { return nil }
        return (recvID, clientMsgID, plain)
    }
}
