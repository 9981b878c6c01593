import IMockCommon

/// A cursor over protobuf bytes for the one-pass readers of the messages every chat message
/// goes through (``OpenIMPB/MsgData/scanned(_:)``, ``OpenIMPB/MsgsByConversation/scanned(_:)``):
/// tags, varints and length-delimited ranges read straight from the array, nil for anything
/// malformed. It accepts exactly what ``ProtobufReader`` accepts for those (a varint of at most
/// ten bytes, the tenth at most 1; a length within the message); a scan that meets anything else
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

    /// A varint, nil if malformed or cut.
    mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while index < end {
            let byte = bytes[index]
            index += 1
            if shift == 63 {
                guard byte <= 1 else { return nil }
                return result | UInt64(byte) << 63
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
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
