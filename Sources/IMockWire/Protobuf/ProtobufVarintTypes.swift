/// `int32`: a varint; negative values are sign-extended to 10 bytes, and wider values read
/// are truncated to 32 bits, as every protobuf runtime does.
public enum ProtobufInt32: ProtobufFieldType {
    public static let wireType = ProtobufWireType.varint
    public static let defaultValue: Int32 = 0
    public static func write(_ value: Int32, to writer: inout ProtobufWriter) {
        writer.writeVarint(UInt64(bitPattern: Int64(value)))
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Int32 {
        Int32(truncatingIfNeeded: try reader.readVarintValue())
    }
}

/// `int64`: a varint; negative values take 10 bytes.
public enum ProtobufInt64: ProtobufFieldType {
    public static let wireType = ProtobufWireType.varint
    public static let defaultValue: Int64 = 0
    public static func write(_ value: Int64, to writer: inout ProtobufWriter) {
        writer.writeVarint(UInt64(bitPattern: value))
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try reader.readVarintValue())
    }
}

/// `uint32`: a varint; wider values read are truncated to 32 bits.
public enum ProtobufUInt32: ProtobufFieldType {
    public static let wireType = ProtobufWireType.varint
    public static let defaultValue: UInt32 = 0
    public static func write(_ value: UInt32, to writer: inout ProtobufWriter) {
        writer.writeVarint(UInt64(value))
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> UInt32 {
        UInt32(truncatingIfNeeded: try reader.readVarintValue())
    }
}

/// `uint64`: a varint.
public enum ProtobufUInt64: ProtobufFieldType {
    public static let wireType = ProtobufWireType.varint
    public static let defaultValue: UInt64 = 0
    public static func write(_ value: UInt64, to writer: inout ProtobufWriter) {
        writer.writeVarint(value)
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> UInt64 {
        try reader.readVarintValue()
    }
}

/// `sint32`: a zig-zag varint (0, −1, 1, −2 … → 0, 1, 2, 3 …), short for small negatives.
public enum ProtobufSInt32: ProtobufFieldType {
    public static let wireType = ProtobufWireType.varint
    public static let defaultValue: Int32 = 0
    public static func write(_ value: Int32, to writer: inout ProtobufWriter) {
        writer.writeVarint(UInt64(UInt32(bitPattern: value << 1 ^ value >> 31)))
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Int32 {
        let zigZag = UInt32(truncatingIfNeeded: try reader.readVarintValue())
        return Int32(bitPattern: zigZag >> 1) ^ -Int32(bitPattern: zigZag & 1)
    }
}

/// `sint64`: a zig-zag varint.
public enum ProtobufSInt64: ProtobufFieldType {
    public static let wireType = ProtobufWireType.varint
    public static let defaultValue: Int64 = 0
    public static func write(_ value: Int64, to writer: inout ProtobufWriter) {
        writer.writeVarint(UInt64(bitPattern: value << 1 ^ value >> 63))
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Int64 {
        let zigZag = try reader.readVarintValue()
        return Int64(bitPattern: zigZag >> 1) ^ -Int64(bitPattern: zigZag & 1)
    }
}

/// `bool`: a varint 0 or 1; any non-zero varint reads as true.
public enum ProtobufBool: ProtobufFieldType {
    public static let wireType = ProtobufWireType.varint
    public static let defaultValue = false
    public static func write(_ value: Bool, to writer: inout ProtobufWriter) {
        writer.writeVarint(value ? 1 : 0)
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Bool {
        try reader.readVarintValue() != 0
    }
}
