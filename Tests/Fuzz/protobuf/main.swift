// Fuzz target `protobuf` (also run as `msync`): the hand-written protobuf decoders of every
// Easemob msync and OpenIM message type, on the same bytes.
//
// Properties (a violation traps):
// - For every type of `MsyncPB.messageTypes` and `OpenIMPB.messageTypes`: what decodes
//   re-encodes to bytes that decode again, to a message that re-encodes to the same bytes
//   (bytes, not `==`: a NaN float field is never equal to itself).
// - Decoding with tight limits (depth 2, 64 bytes) ends in a value or an error, never a trap.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockWire

private let messageTypes = MsyncPB.messageTypes + OpenIMPB.messageTypes
private let tightLimits = ProtobufLimits(maximumDepth: 2, maximumMessageSize: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtobuf(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    for type in messageTypes { checkRoundTrip(type, input) }
    return 0
}

private func checkRoundTrip<Message: ProtobufMessage>(_ type: Message.Type, _ input: [UInt8]) {
    _ = try? Message(protobufBytes: input, limits: tightLimits)
    guard let message = try? Message(protobufBytes: input) else { return }
    let encoded = message.protobufBytes()
    let again: Message
    do {
        again = try Message(protobufBytes: encoded)
    } catch {
        check(false, "\(type): its own encoding does not decode: \(error)")
        return
    }
    check(again.protobufBytes() == encoded, "\(type): the re-encoding differs")
}
