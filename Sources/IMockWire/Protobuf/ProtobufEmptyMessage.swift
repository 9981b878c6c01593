/// A message with no fields (like `google.protobuf.Empty`): the type of every schema message
/// declared `{}`; decoding skips whatever fields come.
public struct ProtobufEmptyMessage: ProtobufMessage, Hashable {
    /// The message.
    public init() {}

    /// Skips every field.
    public init(protobuf reader: inout ProtobufReader) throws(ProtobufError) {
        while try reader.nextField() != nil {}
    }

    /// Writes nothing.
    public func encode(to writer: inout ProtobufWriter) {}
}
