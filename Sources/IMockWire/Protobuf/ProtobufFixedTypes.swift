/// `fixed32`: 4 little-endian bytes.
public enum ProtobufFixed32: ProtobufScalarType {
    /// `UInt32`.
    public typealias Value = UInt32
    /// 4 bytes.
    public static let wireType = ProtobufWireType.fixed32
    /// Itself.
    public static func raw(_ value: UInt32) -> UInt32 { value }
    /// Itself.
    public static func value(_ raw: UInt32) -> UInt32 { raw }
}

/// `fixed64`: 8 little-endian bytes.
public enum ProtobufFixed64: ProtobufScalarType {
    /// `UInt64`.
    public typealias Value = UInt64
    /// 8 bytes.
    public static let wireType = ProtobufWireType.fixed64
    /// Itself.
    public static func raw(_ value: UInt64) -> UInt64 { value }
    /// Itself.
    public static func value(_ raw: UInt64) -> UInt64 { raw }
}

/// `sfixed32`: 4 little-endian bytes, two's complement.
public enum ProtobufSFixed32: ProtobufScalarType {
    /// `Int32`.
    public typealias Value = Int32
    /// 4 bytes.
    public static let wireType = ProtobufWireType.fixed32
    /// Two's complement.
    public static func raw(_ value: Int32) -> UInt32 { UInt32(bitPattern: value) }
    /// Two's complement.
    public static func value(_ raw: UInt32) -> Int32 { Int32(bitPattern: raw) }
}

/// `sfixed64`: 8 little-endian bytes, two's complement.
public enum ProtobufSFixed64: ProtobufScalarType {
    /// `Int64`.
    public typealias Value = Int64
    /// 8 bytes.
    public static let wireType = ProtobufWireType.fixed64
    /// Two's complement.
    public static func raw(_ value: Int64) -> UInt64 { UInt64(bitPattern: value) }
    /// Two's complement.
    public static func value(_ raw: UInt64) -> Int64 { Int64(bitPattern: raw) }
}

/// `float`: an IEEE 754 binary32 in 4 little-endian bytes.
public enum ProtobufFloat: ProtobufScalarType {
    /// `Float`.
    public typealias Value = Float
    /// 4 bytes.
    public static let wireType = ProtobufWireType.fixed32
    /// Only +0.0 is the default (proto3 writes −0.0).
    public static func isDefault(_ value: Float) -> Bool { value.bitPattern == 0 }
    /// The IEEE 754 bits.
    public static func raw(_ value: Float) -> UInt32 { value.bitPattern }
    /// The IEEE 754 bits.
    public static func value(_ raw: UInt32) -> Float { Float(bitPattern: raw) }
}

/// `double`: an IEEE 754 binary64 in 8 little-endian bytes.
public enum ProtobufDouble: ProtobufScalarType {
    /// `Double`.
    public typealias Value = Double
    /// 8 bytes.
    public static let wireType = ProtobufWireType.fixed64
    /// Only +0.0 is the default (proto3 writes −0.0).
    public static func isDefault(_ value: Double) -> Bool { value.bitPattern == 0 }
    /// The IEEE 754 bits.
    public static func raw(_ value: Double) -> UInt64 { value.bitPattern }
    /// The IEEE 754 bits.
    public static func value(_ raw: UInt64) -> Double { Double(bitPattern: raw) }
}
