import IMockWire
import Testing

/// Whether `message` decodes from its own encoding to an equal value.
func roundTrips<M: ProtobufMessage>(_ message: M) throws -> Bool {
    try M(protobufBytes: message.protobufBytes()) == message
}

/// Whether `messages` holds one instance of each of `types`, no more, no less.
func coversEveryType(_ messages: [any ProtobufMessage], _ types: [any ProtobufMessage.Type]) -> Bool {
    Set(messages.map { ObjectIdentifier(type(of: $0)) }) == Set(types.map { ObjectIdentifier($0) })
        && messages.count == types.count
}
