import IMockWire
import Testing

@Suite("Protobuf varints")
struct VarintTests {
    @Test(arguments: [
        (UInt64(0), "00"), (1, "01"), (127, "7f"), (128, "8001"), (300, "ac02"),
        (UInt64(UInt32.max), "ffffffff0f"), (1 << 63, "80808080808080808001"),
        (UInt64.max, "ffffffffffffffffff01"),
    ])
    func uint64RoundTrips(value: UInt64, encoding: String) throws {
        var message = Scalars()
        message.uint64 = value
        #expect(message.protobufBytes() == [0x20] + hex(encoding))
        #expect(try Scalars(protobufBytes: [0x20] + hex(encoding)).uint64 == value)
    }

    @Test func negativeInt32IsATenByteVarintAndReadsBack() throws {
        var message = Scalars()
        message.int32 = -1
        #expect(message.protobufBytes() == hex("08 ff ff ff ff ff ff ff ff ff 01"))
        #expect(try Scalars(protobufBytes: hex("08 ff ff ff ff ff ff ff ff ff 01")).int32 == -1)
        message.int32 = .min
        #expect(try Scalars(protobufBytes: message.protobufBytes()).int32 == .min)
    }

    @Test func wideValuesAreTruncatedTo32BitsLikeOtherRuntimes() throws {
        // 2^32 + 5 in an int32 and a uint32 field; 2^63 in int32 reads 0.
        #expect(try Scalars(protobufBytes: hex("08 85 80 80 80 10")).int32 == 5)
        #expect(try Scalars(protobufBytes: hex("18 85 80 80 80 10")).uint32 == 5)
        #expect(try Scalars(protobufBytes: hex("08 80 80 80 80 80 80 80 80 80 01")).int32 == 0)
    }

    @Test func int64Edges() throws {
        for value in [Int64.min, -1, 0, 1, .max] {
            var message = Scalars()
            message.int64 = value
            #expect(try Scalars(protobufBytes: message.protobufBytes()).int64 == value)
        }
        #expect(try Scalars(protobufBytes: hex("10 80 80 80 80 80 80 80 80 80 01")).int64 == .min)
    }

    @Test(arguments: [
        (Int32(0), "00"), (-1, "01"), (1, "02"), (-2, "03"), (Int32.max, "feffffff0f"), (Int32.min, "ffffffff0f"),
    ])
    func sint32ZigZag(value: Int32, encoding: String) throws {
        var message = Scalars()
        message.sint32 = value
        #expect(message.protobufBytes() == [0x28] + hex(encoding))
        #expect(try Scalars(protobufBytes: [0x28] + hex(encoding)).sint32 == value)
    }

    @Test(arguments: [
        (Int64(0), "00"), (-1, "01"), (1, "02"), (Int64.max, "feffffffffffffffff01"), (Int64.min, "ffffffffffffffffff01"),
    ])
    func sint64ZigZag(value: Int64, encoding: String) throws {
        var message = Scalars()
        message.sint64 = value
        #expect(message.protobufBytes() == [0x30] + hex(encoding))
        #expect(try Scalars(protobufBytes: [0x30] + hex(encoding)).sint64 == value)
    }

    @Test func nonMinimalVarintsAreAccepted() throws {
        #expect(try Scalars(protobufBytes: hex("20 80 00")).uint64 == 0)
        #expect(try Scalars(protobufBytes: hex("20 ff ff ff ff ff ff ff ff ff 00")).uint64 == UInt64.max >> 1)
        #expect(try Scalars(protobufBytes: hex("38 02")).bool == true)
    }

    @Test func tenBytesOf0xFFIsMalformed() {
        let error = protobufError { _ = try Scalars(protobufBytes: hex("20 ff ff ff ff ff ff ff ff ff ff")) }
        #expect(error == .malformedVarint(ProtobufErrorLocation(offset: 1, path: [4])))
    }

    @Test func aTenthByteOverOneIsMalformed() {
        let error = protobufError { _ = try Scalars(protobufBytes: hex("20 80 80 80 80 80 80 80 80 80 02")) }
        #expect(error == .malformedVarint(ProtobufErrorLocation(offset: 1, path: [4])))
    }

    @Test func elevenByteVarintIsMalformed() {
        let error = protobufError { _ = try Scalars(protobufBytes: hex("20 80 80 80 80 80 80 80 80 80 80 00")) }
        #expect(error == .malformedVarint(ProtobufErrorLocation(offset: 1, path: [4])))
    }

    @Test func truncatedVarints() {
        #expect(protobufError { _ = try Scalars(protobufBytes: hex("20 80")) } == .truncated(.init(offset: 1, path: [4])))
        #expect(protobufError { _ = try Scalars(protobufBytes: hex("20")) } == .truncated(.init(offset: 1, path: [4])))
        // A tag cut in the middle.
        #expect(protobufError { _ = try Scalars(protobufBytes: hex("80")) } == .truncated(.init(offset: 0, path: [])))
    }
}
