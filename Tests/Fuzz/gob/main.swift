// Fuzz target `gob`: the Go `encoding/gob` decoder of the OpenIM gateway frames.
//
// Properties (a violation traps):
// - `OpenIMGeneralWsReq` and `OpenIMResp` that decode from the input encode (a fresh encoder:
//   type definition, then the value) to a stream that decodes to an equal value.
// - One encoder writing the value twice (the definition only once) gives a stream whose two
//   values decode equal on one decoder, which is then at the end.
// - Reading the input as a stream of values ends in an error or the end, never a trap.
// - Never a trap, never an out-of-bounds access (ASan).

import IMockWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGob(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    checkRoundTrip(OpenIMGeneralWsReq.self, input)
    checkRoundTrip(OpenIMResp.self, input)
    var stream = GobDecoder(input)
    for _ in 0..<8 where !stream.isAtEnd {
        guard (try? stream.decode(OpenIMGeneralWsReq.self)) != nil else { break }
    }
    return 0
}

private func checkRoundTrip<Value: GobCodable & Equatable>(_ type: Value.Type, _ input: [UInt8]) {
    guard let value = try? GobDecoder.decodeMessage(type, from: input) else { return }
    let encoded = GobEncoder.encodeMessage(value)
    let again = Result { () throws(GobError) in try GobDecoder.decodeMessage(type, from: encoded) }
    check(again == .success(value), "\(type) \(value) encodes to a stream that decodes as \(again)")

    var encoder = GobEncoder()
    let twice = encoder.encode(value) + encoder.encode(value)
    var decoder = GobDecoder(twice)
    let first = try? decoder.decode(type)
    let second = try? decoder.decode(type)
    check(first == value && second == value && decoder.isAtEnd, "\(type) \(value) twice on one stream")
}
