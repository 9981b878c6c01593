/// `int32`: a varint; negative values are sign-extended to 10 bytes, and wider values read
/// are truncated to 32 bits, as every protobuf runtime does.
public enum ProtobufInt32: ProtobufScalarType {
    /// `Int32`.
    public typealias Value = Int32
    /// Varint.
    public static let wireType = ProtobufWireType.varint
    /// Sign-extended to 64 bits.
    public static func raw(_ value: Int32) -> UInt64 { UInt64(bitPattern: Int64(value)) }
    /// The low 32 bits.
    public static func value(_ raw: UInt64) -> Int32 { Int32(truncatingIfNeeded: raw) }
}

/// `int64`: a varint; negative values take 10 bytes.
public enum ProtobufInt64: ProtobufScalarType {
    /// `Int64`.
    public typealias Value = Int64
    /// Varint.
    public static let wireType = ProtobufWireType.varint
    /// Two's complement.
    public static func raw(_ value: Int64) -> UInt64 { UInt64(bitPattern: value) }
    /// Two's complement.
    public static func value(_ raw: UInt64) -> Int64 { Int64(bitPattern: raw) }
}

/// `uint32`: a varint; wider values read are truncated to 32 bits.
public enum ProtobufUInt32: ProtobufScalarType {
    /// `UInt32`.
    public typealias Value = UInt32
    /// Varint.
    public static let wireType = ProtobufWireType.varint
    /// Zero-extended.
    public static func raw(_ value: UInt32) -> UInt64 { UInt64(value) }
    /// The low 32 bits.
    public static func value(_ raw: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: raw) }
}

/// `uint64`: a varint.
public enum ProtobufUInt64: ProtobufScalarType {
    /// `UInt64`.
    public typealias Value = UInt64
    /// Varint.
    public static let wireType = ProtobufWireType.varint
    /// Itself.
    public static func raw(_ value: UInt64) -> UInt64 { value }
    /// Itself.
    public static func value(_ raw: UInt64) -> UInt64 { raw }
}

/// `sint32`: a zig-zag varint (0, −1, 1, −2 … → 0, 1, 2, 3 …), short for small negatives.
public enum ProtobufSInt32: ProtobufScalarType {
    /// `Int32`.
    public typealias Value = Int32
    /// Varint.
    public static let wireType = ProtobufWireType.varint
    /// Zig-zag encoded.
    public static func raw(_ value: Int32) -> UInt64 { UInt64(UInt32(bitPattern: value << 1 ^ value >> 31)) }
    /// Zig-zag decoded from the low 32 bits.
    public static func value(_ raw: UInt64) -> Int32 {
        let zigZag = UInt32(truncatingIfNeeded: raw)
        return Int32(bitPattern: zigZag >> 1) ^ -Int32(bitPattern: zigZag & 1)
    }
}

/// `sint64`: a zig-zag varint.
public enum ProtobufSInt64: ProtobufScalarType {
    /// `Int64`.
    public typealias Value = Int64
    /// Varint.
    public static let wireType = ProtobufWireType.varint
    /// Zig-zag encoded.
    public static func raw(_ value: Int64) -> UInt64 { UInt64(bitPattern: value << 1 ^ value >> 63) }
    /// Zig-zag decoded.
    public static func value(_ raw: UInt64) -> Int64 { Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1) }
}

/// `bool`: a varint 0 or 1; any non-zero varint reads as true.
public enum ProtobufBool: ProtobufScalarType {
    /// `Bool`.
    public typealias Value = Bool
    /// Varint.
    public static let wireType = ProtobufWireType.varint
    /// 1 or 0.
    public static func raw(_ value: Bool) -> UInt64 { value ? 1 : 0 }
    /// Whether it is not 0.
    public static func value(_ raw: UInt64) -> Bool { raw != 0 }
}
