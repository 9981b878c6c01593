import IMockCommon

/// A cursor over protobuf bytes for the one-pass readers of the messages every chat message
/// goes through (``OpenIMPB/MsgData/scanned(_:)``, ``OpenIMPB/MsgsByConversation/scanned(_:)``):
/// tags, varints and length-delimited ranges read straight from the array, nil for anything
/// malformed. It accepts exactly what ``ProtobufReader`` accepts for those (its varints through
/// the same ``ProtobufVarint``; a length within the message); a scan that meets anything else
/// gives up and the general reader reads the bytes, errors included.
struct OpenIMProtobufScan {
    let bytes: [UInt8]
    private(set) var index: Int
    let end: Int

    /// A cursor over `bytes[range]`.
    init(_ bytes: [UInt8], _ range: Range<Int>) {
        self.bytes = bytes
        index = range.lowerBound
        end = range.upperBound
    }

    /// Whether the message is read to its end.
    var isAtEnd: Bool { index >= end }

    /// The next tag as its raw key (field number << 3 | wire type), nil if malformed.
    mutating func key() -> UInt64? { varint() }

    /// A varint (``ProtobufVarint``), nil if malformed or cut.
    mutating func varint() -> UInt64? {
        guard case .value(let value) = ProtobufVarint.read(bytes, at: &index, end: end) else { return nil }
        return value
    }

    /// The range of a length-delimited value, nil if its length is malformed or past the end.
    mutating func lengthDelimited() -> Range<Int>? {
        guard let length = varint(), length <= UInt64(end - index) else { return nil }
        let range = index..<(index + Int(length))
        index = range.upperBound
        return range
    }

    /// A length-delimited value as a string, nil if not valid UTF-8 (or malformed).
    mutating func string() -> String? {
        guard let range = lengthDelimited() else { return nil }
        return String(validUTF8: bytes[range])
    }

    /// Field keys: a field number and its wire type.
    static func key(_ field: UInt64, _ wireType: UInt64) -> UInt64 { field << 3 | wireType }
}
