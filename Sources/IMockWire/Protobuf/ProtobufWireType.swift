/// The six wire types of the protobuf binary encoding: the low three bits of every field tag.
public enum ProtobufWireType: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// int32, int64, uint32, uint64, sint32, sint64, bool, enum.
    case varint = 0
    /// fixed64, sfixed64, double: 8 little-endian bytes.
    case fixed64 = 1
    /// string, bytes, nested messages, packed repeated fields: a varint length, then the bytes.
    case lengthDelimited = 2
    /// The start of a proto2 group (deprecated); only ever skipped.
    case startGroup = 3
    /// The end of a proto2 group (deprecated).
    case endGroup = 4
    /// fixed32, sfixed32, float: 4 little-endian bytes.
    case fixed32 = 5

    /// The name used in error messages.
    public var description: String {
        switch self {
        case .varint: "varint"
        case .fixed64: "fixed64"
        case .lengthDelimited: "length-delimited"
        case .startGroup: "start-group"
        case .endGroup: "end-group"
        case .fixed32: "fixed32"
        }
    }
}
