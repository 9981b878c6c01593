import IMockCommon
import IMockCore
import IMockWire
import Testing

/// A small, deterministic stand-in for the libFuzzer targets: every message type's decoder on
/// mutated real frames and on random bytes. Decoding must end in a value or a `ProtobufError`
/// (a trap fails the whole run), and what decodes must re-encode to bytes that decode to the
/// same encoding again.
@Suite("Protobuf decoders on mutated input")
struct MutationTests {
    static let types = MsyncPB.messageTypes + OpenIMPB.messageTypes
    static let seeds = FuzzSeeds.all.map(\.bytes) + (MsyncSamples.all + OpenIMSamples.all).map { $0.protobufBytes() }

    @Test func mutatedFramesDecodeOrFailCleanly() {
        var random = SplitMix64(seed: 0x5EED_1AB5)
        for round in 0..<4_000 {
            var bytes = Self.seeds[Int(random.next() % UInt64(Self.seeds.count))]
            for _ in 0...(random.next() % 4) { mutate(&bytes, &random) }
            for type in Self.types {
                let stable = reencodesStably(type, bytes)
                #expect(stable, "\(type) on round \(round): \(bytes.hexString)")
            }
        }
    }

    @Test func randomBytesDecodeOrFailCleanly() {
        var random = SplitMix64(seed: 0xB17E5)
        for round in 0..<4_000 {
            let bytes = (0..<(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for type in Self.types {
                let stable = reencodesStably(type, bytes)
                #expect(stable, "\(type) on round \(round): \(bytes.hexString)")
            }
        }
    }

    private func reencodesStably<M: ProtobufMessage>(_ type: M.Type, _ bytes: [UInt8]) -> Bool {
        guard let message = try? M(protobufBytes: bytes) else { return true }
        let encoded = message.protobufBytes()
        guard let again = try? M(protobufBytes: encoded) else { return false }
        return again.protobufBytes() == encoded
    }

    /// Values that make varints, lengths and tags interesting.
    private static let interesting: [[UInt8]] = [
        [0x00], [0x01], [0x7F], [0x80], [0xFF], [0x0B], [0x0C], [0x0E],
        hex("80 80 80 80 80 80 80 80 80 01"), hex("ff ff ff ff ff ff ff ff ff 01"),
        hex("ff ff ff ff ff ff ff ff ff ff"), hex("ff ff ff ff 0f"), hex("80 80 40"),
    ]

    private func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
        switch random.next() % 6 {
        case 0 where !bytes.isEmpty:
            bytes[position] ^= 1 << UInt8(random.next() % 8)
        case 1 where !bytes.isEmpty:
            bytes[position] = UInt8(truncatingIfNeeded: random.next())
        case 2:
            bytes.insert(contentsOf: Self.interesting[Int(random.next() % UInt64(Self.interesting.count))], at: position)
        case 3 where !bytes.isEmpty:
            bytes.removeSubrange(position..<min(bytes.count, position + 1 + Int(random.next() % 8)))
        case 4:
            bytes = Array(bytes.prefix(position))
        default:
            let end = min(bytes.count, position + 1 + Int(random.next() % 16))
            bytes.insert(contentsOf: bytes[position..<end], at: end)
        }
    }
}
