extension OpenIMPB.MsgData {
    /// The message in `bytes` read in one pass, or nil when a field is not one of its strings,
    /// bytes or numbers (a map, a nested message, a repeated field, an unknown field), has
    /// another wire type, or anything is malformed: then ``init(protobufBytes:path:limits:)``
    /// reads it, or says what is wrong. Equal to that reading whenever it is not nil (a test
    /// holds the two equal over generated and mutated messages). What a chat message's send and
    /// push carry.
    public static func scanned(_ bytes: [UInt8]) -> Self? {
        var data = Self()
        return scan(bytes, into: &data) ? data : nil
    }

    /// The message in `bytes`: ``scanned(_:)``, else the general reader's.
    public static func decoded(_ bytes: [UInt8]) throws(ProtobufError) -> Self {
        var data = Self()
        if scan(bytes, into: &data) { return data }
        return try Self(protobufBytes: bytes)
    }

    /// ``scanned(_:)`` into `data` (an empty message): whether it read the message. Filled in
    /// place, so the large value is not copied on its way out.
    private static func scan(_ bytes: [UInt8], into data: inout Self) -> Bool {
        ProtobufReader.scanned(bytes) { reader throws(ProtobufError) in try scan(&reader, into: &data) ? true : nil } ?? false
    }

    /// Reads the rest of `reader`'s message into `data` (an empty message) as ``scanned(_:)``
    /// reads it; false when it gives up (`data` is then partly filled). Each field is read as
    /// ``init(protobuf:)`` reads it (``readPlainField(_:from:)``), so a wrong wire type or a
    /// malformed value throws.
    static func scan(_ reader: inout ProtobufReader, into data: inout Self) throws(ProtobufError) -> Bool {
        while let field = try reader.nextField() {
            guard try data.readPlainField(field.number, from: &reader) else { return false }
        }
        return true
    }
}
