extension OpenIMPB.MsgsByConversation {
    /// The push or pull answer in `bytes` read in one pass, its messages by
    /// ``OpenIMPB/MsgData/scanned(_:)``, or nil when anything is not what the gateway writes
    /// (an unknown field, another wire type, a message the scan does not read, anything
    /// malformed): then ``init(protobufBytes:path:limits:)`` reads it, or says what is wrong.
    /// Equal to that reading whenever it is not nil. Every 2001 push the reference client reads.
    public static func scanned(_ bytes: [UInt8]) -> Self? {
        guard bytes.count <= ProtobufLimits.standard.maximumMessageSize else { return nil }
        var scan = OpenIMProtobufScan(bytes, 0..<bytes.count)
        var value = Self()
        while !scan.isAtEnd {
            switch scan.key() {
            case OpenIMProtobufScan.key(1, 2): guard entry(&scan, into: &value.msgs) else { return nil }
            case OpenIMProtobufScan.key(2, 2): guard entry(&scan, into: &value.notificationMsgs) else { return nil }
            default: return nil
            }
        }
        return value
    }

    /// The messages of ``msgs`` in the order of their conversation ids — what a client takes
    /// from a push or pull answer — when the scan reads `bytes` and finds one conversation and
    /// no notifications (a push of one message); nil otherwise, and for anything the scan
    /// leaves to the general reader. No map is built for the one conversation.
    public static func scannedMessagesOfOneConversation(_ bytes: [UInt8]) -> [OpenIMPB.MsgData]? {
        guard bytes.count <= ProtobufLimits.standard.maximumMessageSize else { return nil }
        var scan = OpenIMProtobufScan(bytes, 0..<bytes.count)
        guard scan.key() == OpenIMProtobufScan.key(1, 2), let range = scan.lengthDelimited(), scan.isAtEnd else { return nil }
        return entryParts(OpenIMProtobufScan(bytes, range))?.value.msgs
    }

    /// The message in `bytes`: ``scanned(_:)``, else the general reader's.
    public static func decoded(_ bytes: [UInt8]) throws(ProtobufError) -> Self {
        if let scanned = scanned(bytes) { return scanned }
        return try Self(protobufBytes: bytes)
    }

    /// One map entry (a missing key or value is its default; a repeated key keeps the last
    /// value, as ``ProtobufReader/readMapEntry(key:value:into:)`` does).
    private static func entry(_ scan: inout OpenIMProtobufScan, into map: inout [String: OpenIMPB.PullMsgs]) -> Bool {
        guard let range = scan.lengthDelimited(), let (key, value) = entryParts(OpenIMProtobufScan(scan.bytes, range)) else {
            return false
        }
        map[key] = value
        return true
    }

    /// A map entry's key and value (each its default when missing, the last when repeated);
    /// nil for anything else.
    private static func entryParts(_ scan: OpenIMProtobufScan) -> (key: String, value: OpenIMPB.PullMsgs)? {
        var entry = scan
        var key = ""
        var value = OpenIMPB.PullMsgs()
        while !entry.isAtEnd {
            switch entry.key() {
            case OpenIMProtobufScan.key(1, 2):
                guard let string = entry.string() else { return nil }
                key = string
            case OpenIMProtobufScan.key(2, 2):
                guard let range = entry.lengthDelimited() else { return nil }
                var pull = OpenIMProtobufScan(entry.bytes, range)
                guard let read = pullMsgs(&pull) else { return nil }
                value = read
            default:
                return nil
            }
        }
        return (key, value)
    }

    /// `PullMsgs`: its messages, `isEnd`, `endSeq`.
    private static func pullMsgs(_ scan: inout OpenIMProtobufScan) -> OpenIMPB.PullMsgs? {
        var pull = OpenIMPB.PullMsgs()
        while !scan.isAtEnd {
            switch scan.key() {
            case OpenIMProtobufScan.key(1, 2):
                guard let range = scan.lengthDelimited() else { return nil }
                var message = OpenIMProtobufScan(scan.bytes, range)
                var data = OpenIMPB.MsgData()
                guard OpenIMPB.MsgData.scan(&message, into: &data) else { return nil }
                pull.msgs.append(data)
            case OpenIMProtobufScan.key(2, 0):
                guard let raw = scan.varint() else { return nil }
                pull.isEnd = raw != 0
            case OpenIMProtobufScan.key(3, 0):
                guard let raw = scan.varint() else { return nil }
                pull.endSeq = Int64(bitPattern: raw)
            default:
                return nil
            }
        }
        return pull
    }
}
