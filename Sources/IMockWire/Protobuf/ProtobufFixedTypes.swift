/// `fixed32`: 4 little-endian bytes.
public enum ProtobufFixed32: ProtobufFieldType {
    public static let wireType = ProtobufWireType.fixed32
    public static let defaultValue: UInt32 = 0
    public static func write(_ value: UInt32, to writer: inout ProtobufWriter) { writer.writeFixed32(value) }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> UInt32 {
        try reader.readFixed32Value()
    }
}

/// `fixed64`: 8 little-endian bytes.
public enum ProtobufFixed64: ProtobufFieldType {
    public static let wireType = ProtobufWireType.fixed64
    public static let defaultValue: UInt64 = 0
    public static func write(_ value: UInt64, to writer: inout ProtobufWriter) { writer.writeFixed64(value) }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> UInt64 {
        try reader.readFixed64Value()
    }
}

/// `sfixed32`: 4 little-endian bytes, two's complement.
public enum ProtobufSFixed32: ProtobufFieldType {
    public static let wireType = ProtobufWireType.fixed32
    public static let defaultValue: Int32 = 0
    public static func write(_ value: Int32, to writer: inout ProtobufWriter) {
        writer.writeFixed32(UInt32(bitPattern: value))
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Int32 {
        Int32(bitPattern: try reader.readFixed32Value())
    }
}

/// `sfixed64`: 8 little-endian bytes, two's complement.
public enum ProtobufSFixed64: ProtobufFieldType {
    public static let wireType = ProtobufWireType.fixed64
    public static let defaultValue: Int64 = 0
    public static func write(_ value: Int64, to writer: inout ProtobufWriter) {
        writer.writeFixed64(UInt64(bitPattern: value))
    }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try reader.readFixed64Value())
    }
}

/// `float`: an IEEE 754 binary32 in 4 little-endian bytes.
public enum ProtobufFloat: ProtobufFieldType {
    public static let wireType = ProtobufWireType.fixed32
    public static let defaultValue: Float = 0
    /// Only +0.0 is the default (proto3 writes −0.0).
    public static func isDefault(_ value: Float) -> Bool { value.bitPattern == 0 }
    public static func write(_ value: Float, to writer: inout ProtobufWriter) { writer.writeFixed32(value.bitPattern) }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Float {
        Float(bitPattern: try reader.readFixed32Value())
    }
}

/// `double`: an IEEE 754 binary64 in 8 little-endian bytes.
public enum ProtobufDouble: ProtobufFieldType {
    public static let wireType = ProtobufWireType.fixed64
    public static let defaultValue: Double = 0
    /// Only +0.0 is the default (proto3 writes −0.0).
    public static func isDefault(_ value: Double) -> Bool { value.bitPattern == 0 }
    public static func write(_ value: Double, to writer: inout ProtobufWriter) { writer.writeFixed64(value.bitPattern) }
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Double {
        Double(bitPattern: try reader.readFixed64Value())
    }
}
