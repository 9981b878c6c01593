extension OpenIMPB.MsgsByConversation {
    /// The push or pull answer in `bytes` read in one pass, its messages by
    /// ``OpenIMPB/MsgData/scanned(_:)``, or nil when anything is not what the gateway writes
    /// (an unknown field, another wire type, a message the scan does not read, anything
    /// malformed): then ``init(protobufBytes:path:limits:)`` reads it, or says what is wrong.
    /// Equal to that reading whenever it is not nil. Every 2001 push the reference client reads.
    public static func scanned(_ bytes: [UInt8]) -> Self? {
        ProtobufReader.scanned(bytes) { reader throws(ProtobufError) in
            var value = Self()
            while let field = try reader.nextField() {
                switch field.number {
                case 1: guard try entry(&reader, into: &value.msgs) else { return nil }
                case 2: guard try entry(&reader, into: &value.notificationMsgs) else { return nil }
                default: return nil
                }
            }
            return value
        }
    }

    /// The messages of ``msgs`` in the order of their conversation ids — what a client takes
    /// from a push or pull answer — when the scan reads `bytes` and finds one conversation and
    /// no notifications (a push of one message); nil otherwise, and for anything the scan
    /// leaves to the general reader. No map is built for the one conversation.
    public static func scannedMessagesOfOneConversation(_ bytes: [UInt8]) -> [OpenIMPB.MsgData]? {
        ProtobufReader.scanned(bytes) { reader throws(ProtobufError) in
            guard try reader.nextField()?.number == 1 else { return nil }
            var entry = try reader.inPlaceValue(nesting: true)
            guard try reader.nextField() == nil else { return nil }
            return try entryParts(&entry)?.value.msgs
        }
    }

    /// The message in `bytes`: ``scanned(_:)``, else the general reader's.
    public static func decoded(_ bytes: [UInt8]) throws(ProtobufError) -> Self {
        if let scanned = scanned(bytes) { return scanned }
        return try Self(protobufBytes: bytes)
    }

    /// One map entry, the current field of `reader` (a missing key or value is its default; a
    /// repeated key keeps the last value, as ``ProtobufReader/readMapEntry(key:value:into:)``
    /// does); false for an entry the scan leaves.
    private static func entry(_ reader: inout ProtobufReader, into map: inout [String: OpenIMPB.PullMsgs]) throws(ProtobufError) -> Bool {
        var entry = try reader.inPlaceValue(nesting: true)
        guard let (key, value) = try entryParts(&entry) else { return false }
        map[key] = value
        return true
    }

    /// A map entry's key and value (each its default when missing, the last when repeated);
    /// nil for anything else.
    private static func entryParts(_ entry: inout ProtobufReader) throws(ProtobufError) -> (key: String, value: OpenIMPB.PullMsgs)? {
        var key = ""
        var value = OpenIMPB.PullMsgs()
        while let field = try entry.nextField() {
            switch field.number {
            case 1: key = try entry.read(ProtobufString.self)
            case 2:
                var pull = try entry.inPlaceValue(nesting: true)
                guard let read = try pullMsgs(&pull) else { return nil }
                value = read
            default: return nil
            }
        }
        return (key, value)
    }

    /// `PullMsgs`: its messages, `isEnd`, `endSeq`.
    private static func pullMsgs(_ reader: inout ProtobufReader) throws(ProtobufError) -> OpenIMPB.PullMsgs? {
        var pull = OpenIMPB.PullMsgs()
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                var message = try reader.inPlaceValue(nesting: true)
                var data = OpenIMPB.MsgData()
                guard try OpenIMPB.MsgData.scan(&message, into: &data) else { return nil }
                pull.msgs.append(data)
            case 2: pull.isEnd = try reader.read(ProtobufBool.self)
            case 3: pull.endSeq = try reader.read(ProtobufInt64.self)
            default: return nil
            }
        }
        return pull
    }
}
