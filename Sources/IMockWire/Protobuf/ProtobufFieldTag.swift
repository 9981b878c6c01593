/// The key in front of every field value: the field number and how the value is encoded.
public struct ProtobufFieldTag: Sendable, Hashable {
    /// The largest field number protobuf allows (2^29 − 1).
    public static let maximumFieldNumber = 536_870_911

    /// The field number, 1 … ``maximumFieldNumber``.
    public var number: Int
    /// How the value that follows is encoded.
    public var wireType: ProtobufWireType

    /// A tag for field `number` with values of `wireType`.
    public init(number: Int, wireType: ProtobufWireType) {
        self.number = number
        self.wireType = wireType
    }

    /// The varint that encodes this tag: `number << 3 | wireType`.
    var encoded: UInt64 { UInt64(number) << 3 | UInt64(wireType.rawValue) }
}
