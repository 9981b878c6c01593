/// A protobuf field type (`int32`, `sint64`, `string`, a message, an enum …): how one value of
/// its Swift type is written and read, without the tag.
///
/// The scalar types are caseless enums named after the schema type (``ProtobufInt32``,
/// ``ProtobufSInt64``, ``ProtobufString`` …), because one Swift type can have several encodings
/// (`Int32` is `int32`, `sint32` or `sfixed32`). Messages and enums are their own field type.
public protocol ProtobufFieldType {
    /// The Swift type of a value.
    associatedtype Value: Sendable
    /// The wire type of one value.
    static var wireType: ProtobufWireType { get }
    /// The value of a field that is absent (0, false, empty, an empty message).
    static var defaultValue: Value { get }
    /// Whether `value` is the default, which proto3 does not write.
    static func isDefault(_ value: Value) -> Bool
    /// Writes `value` without its tag.
    static func write(_ value: Value, to writer: inout ProtobufWriter)
    /// Reads one value at the reader's cursor, whose wire type is already checked.
    static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Value
}

extension ProtobufFieldType where Value: Equatable {
    /// Equality with ``defaultValue``.
    public static func isDefault(_ value: Value) -> Bool { value == defaultValue }
}
