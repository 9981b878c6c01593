/// A message written by hand against its schema: it reads its fields from a
/// ``ProtobufReader`` and writes them to a ``ProtobufWriter``. A message is also the field type
/// of fields that hold it (length-delimited, nested).
public protocol ProtobufMessage: ProtobufFieldType, Equatable, Sendable where Value == Self {
    /// The message with every field absent.
    init()
    /// Reads every field of the message from `reader` (until ``ProtobufReader/nextField()``
    /// returns nil), skipping the fields it does not know.
    init(protobuf reader: inout ProtobufReader) throws(ProtobufError)
    /// Writes the fields that are set, in field-number order.
    func encode(to writer: inout ProtobufWriter)
}

extension ProtobufMessage {
    /// Decodes a message from untrusted `bytes`; never traps, whatever the bytes.
    /// - Parameters:
    ///   - path: field numbers to put in front of error locations when `bytes` is the value of
    ///     a `bytes` field (e.g. `[9]` for `MSync.payload`).
    ///   - limits: the size and nesting bounds.
    public init(protobufBytes bytes: [UInt8], path: [Int] = [], limits: ProtobufLimits = .standard) throws(ProtobufError) {
        var reader = try ProtobufReader(bytes, path: path, limits: limits)
        try self.init(protobuf: &reader)
    }

    /// The binary encoding of the message.
    public func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter(capacity: Self.expectedEncodingLength)
        encode(to: &writer)
        return writer.bytes
    }

    /// The room reserved for ``protobufBytes()``: most messages (a reply, a push of one
    /// message) fit, so their buffer is allocated once rather than grown from empty.
    static var expectedEncodingLength: Int { 256 }

    /// Nested messages are length-delimited.
    public static var wireType: ProtobufWireType { .lengthDelimited }
    /// The empty message.
    public static var defaultValue: Self { Self() }

    /// Writes `value` as a nested message: its length, then its fields.
    public static func write(_ value: Self, to writer: inout ProtobufWriter) {
        writer.writeLengthDelimited { value.encode(to: &$0) }
    }

    /// Reads a nested message, one level deeper.
    public static func read(from reader: inout ProtobufReader) throws(ProtobufError) -> Self {
        try reader.readNestedMessage(Self.self)
    }
}
