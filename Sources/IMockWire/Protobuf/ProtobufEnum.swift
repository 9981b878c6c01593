/// A protobuf enum as a Swift enum that keeps numbers it does not know: one case per value of
/// the schema plus `unrecognized(Int32)`, so a value sent by a newer peer survives decoding and
/// re-encoding.
///
/// A conformance lists its known cases once and maps each to its number once:
///
/// ```swift
/// enum Command: ProtobufEnum {
///     case sync, unread
///     case unrecognized(Int32)
///     static let knownCases: [Command] = [.sync, .unread]
///     var rawValue: Int32 {
///         switch self {
///         case .sync: 0
///         case .unread: 1
///         case .unrecognized(let value): value
///         }
///     }
/// }
/// ```
public protocol ProtobufEnum: ProtobufFieldType, Hashable, Sendable where Value == Self {
    /// Every case but `unrecognized`, the first being the schema's first value (proto2's default).
    static var knownCases: [Self] { get }
    /// A number that is none of ``knownCases``.
    static func unrecognized(_ rawValue: Int32) -> Self
    /// The number on the wire.
    var rawValue: Int32 { get }
}

extension ProtobufEnum {
    /// The known case numbered `rawValue`, or `unrecognized(rawValue)`.
    public init(rawValue: Int32) {
        self = Self.knownCases.first { $0.rawValue == rawValue } ?? .unrecognized(rawValue)
    }

    /// Enums are varints.
    public static var wireType: ProtobufWireType { .varint }
    /// The schema's first value.
    public static var defaultValue: Self { knownCases.first ?? .unrecognized(0) }

    /// Writes the number as an `int32` (negative numbers take 10 bytes).
    public static func write(_ value: Self, to writer: inout ProtobufWriter) {
        ProtobufInt32.write(value.rawValue, to: &writer)
    }

    /// Reads an `int32` number; an unknown one becomes `unrecognized`.
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Self {
        Self(rawValue: try ProtobufInt32.read(from: &reader))
    }
}
