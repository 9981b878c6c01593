/// A scalar field type whose value is a plain conversion of one raw wire value: a varint, 4 or
/// 8 little-endian bytes. A conformance names the wire type and the two conversions; writing,
/// reading and the default (zero) follow.
public protocol ProtobufScalarType: ProtobufFieldType where Value: Equatable {
    /// The raw wire value (`UInt64` for varints and fixed64, `UInt32` for fixed32).
    associatedtype Raw: FixedWidthInteger & UnsignedInteger
    /// `value` as the raw wire value.
    static func raw(_ value: Value) -> Raw
    /// The value a raw wire value stands for; never traps, whatever `raw` is.
    static func value(_ raw: Raw) -> Value
}

extension ProtobufScalarType {
    /// The value of raw 0: 0, false, +0.0.
    public static var defaultValue: Value { value(0) }

    /// Writes the raw value: a varint for ``ProtobufWireType/varint``, else little-endian bytes.
    public static func write(_ value: Value, to writer: inout ProtobufWriter) {
        let raw = UInt64(raw(value))
        switch wireType {
        case .varint: writer.writeVarint(raw)
        case .fixed32: writer.writeFixed32(UInt32(truncatingIfNeeded: raw))
        default: writer.writeFixed64(raw)
        }
    }

    /// Reads the raw value and converts it.
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Value {
        let raw: UInt64
        switch wireType {
        case .varint: raw = try reader.readVarintValue()
        case .fixed32: raw = UInt64(try reader.readFixed32Value())
        default: raw = try reader.readFixed64Value()
        }
        return value(Raw(truncatingIfNeeded: raw))
    }
}
