import IMockCommon

extension OpenIMChatMessage {
    /// What a 1003 send asks of the engine — the recipient, the client's id, the text — read in
    /// one pass over its `MsgData`: only those strings are made (the others are checked as
    /// UTF-8), and the text is read inside the content. Nil unless the send is a 1:1 text that
    /// ``OpenIMPB/MsgData/decoded(_:)`` and ``text(of:)`` would read as the same three — then
    /// they read it, or say why it is refused. Every message the gateway is sent.
    static func scannedSend(_ bytes: [UInt8]) -> (recvID: String, clientMsgID: String, text: String)? {
        // The reader stays in this function (no closure over it), so it is kept in registers.
        do throws(ProtobufError) {
            var reader = try ProtobufReader(bytes)
            var recvID = ""
            var clientMsgID = ""
            var content = 0..<0
            var sessionType: Int32 = 0
            var contentType: Int32 = 0
            while let field = try reader.nextField() {
                switch field.number {
                case 2: recvID = try reader.read(ProtobufString.self)
                case 4: clientMsgID = try reader.read(ProtobufString.self)
                case 9: sessionType = try reader.read(ProtobufInt32.self)
                case 11: contentType = try reader.read(ProtobufInt32.self)
                case 12: content = try reader.rangeInPlace()
                case 1, 3, 5, 7, 8, 22, 23: try reader.checkString()
                case 6, 10, 17: _ = try reader.read(ProtobufInt32.self)
                case 14, 15, 16: _ = try reader.read(ProtobufInt64.self)
                case 18: _ = try reader.read(ProtobufBool.self)
                default: return nil
                }
            }
            guard sessionType == singleChat, contentType == text, !recvID.isEmpty else { return nil }
            let plain = bytes.withUnsafeBufferPointer { plainText(ofContent: UnsafeBufferPointer(rebasing: $0[content])) }
            guard let plain else { return nil }
            return (recvID, clientMsgID, plain)
        } catch {
            return nil
        }
    }
}
