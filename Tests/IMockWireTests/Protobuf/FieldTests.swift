import IMockWire
import Testing

@Suite("Protobuf fields")
struct FieldTests {
    @Test func everyScalarTypeRoundTrips() throws {
        var message = Scalars()
        message.int32 = -123
        message.int64 = -9_000_000_000
        message.uint32 = .max
        message.uint64 = .max
        message.sint32 = .min
        message.sint64 = .min
        message.bool = false
        message.fixed32 = 0xDEAD_BEEF
        message.fixed64 = 0x0123_4567_89AB_CDEF
        message.sfixed32 = -2
        message.sfixed64 = .min
        message.float = -1.5
        message.double = .pi
        message.string = "héllo 😀"
        message.bytes = [0, 255, 128]
        message.packedInts = [1, -1, 300]
        message.unpackedSInts = [-1, 0, .max]
        message.names = ["a", "", "b"]
        message.counts = ["x": 1, "a": -1, "": 0]
        var child = Scalars()
        child.string = "child"
        message.children = ["k": child, "empty": Scalars()]
        #expect(try Scalars(protobufBytes: message.protobufBytes()) == message)
    }

    @Test func fixedWidthValuesAreLittleEndian() {
        var message = Scalars()
        message.fixed32 = 0x0102_0304
        message.sfixed64 = -2
        message.float = 1
        message.double = -2
        #expect(
            message.protobufBytes()
                == hex("45 04030201  59 feffffffffffffff  65 0000803f  69 00000000000000c0"))
    }

    @Test func presentZeroIsWrittenAndAbsentIsNot() {
        var message = Scalars()
        #expect(message.protobufBytes() == [])
        message.uint64 = 0
        message.string = ""
        #expect(message.protobufBytes() == hex("20 00 72 00"))
    }

    @Test func writeUnlessDefaultOmitsProto3Defaults() {
        var writer = ProtobufWriter()
        writer.writeUnlessDefault(0, as: ProtobufInt64.self, field: 1)
        writer.writeUnlessDefault("", as: ProtobufString.self, field: 2)
        writer.writeUnlessDefault(false, as: ProtobufBool.self, field: 3)
        writer.writeUnlessDefault(0.0, as: ProtobufDouble.self, field: 4)
        #expect(writer.bytes == [])
        writer.writeUnlessDefault(-0.0, as: ProtobufDouble.self, field: 4)
        writer.writeUnlessDefault(7, as: ProtobufInt64.self, field: 1)
        #expect(writer.bytes == hex("21 0000000000000080 08 07"))
    }

    @Test func repeatedScalarsAreReadPackedOrUnpacked() throws {
        var message = Scalars()
        message.packedInts = [1, 2, 3]
        message.unpackedSInts = [-1, 1]
        #expect(message.protobufBytes() == hex("82 01 03 01 02 03   88 01 01  88 01 02"))
        // The same values the other way round, and both forms mixed in one field.
        let swapped = try Scalars(protobufBytes: hex("80 01 01  80 01 02  80 01 03   8a 01 02 01 02"))
        #expect(swapped.packedInts == [1, 2, 3])
        #expect(swapped.unpackedSInts == [-1, 1])
        let mixed = try Scalars(protobufBytes: hex("82 01 01 05  80 01 06  82 01 00"))
        #expect(mixed.packedInts == [5, 6])
    }

    @Test func emptyPackedFieldIsNotWritten() {
        var writer = ProtobufWriter()
        writer.writePacked([], as: ProtobufUInt32.self, field: 3)
        #expect(writer.bytes == [])
    }

    @Test func aPackedRunCutInsideAValueIsTruncated() {
        let error = protobufError { _ = try Scalars(protobufBytes: hex("82 01 02 01 80")) }
        #expect(error == .truncated(ProtobufErrorLocation(offset: 4, path: [16])))
        let fixed = protobufError { _ = try Scalars(protobufBytes: hex("42 03 01 02 03")) }
        #expect(fixed == .wrongWireType(expected: .fixed32, found: .lengthDelimited, ProtobufErrorLocation(offset: 1, path: [8])))
    }

    @Test func mapsAreSortedByKeyWithKeyAndValueAlwaysWritten() {
        var message = Scalars()
        message.counts = ["b": 0, "a": 2]
        #expect(message.protobufBytes() == hex("9a 01 05 0a 01 61 10 02   9a 01 05 0a 01 62 10 00"))
    }

    @Test func mapEntriesDefaultMissingPartsAndKeepTheLastDuplicate() throws {
        // An entry with no key, one with no value, one with an unknown field, then "a" twice.
        let bytes = hex("9a 01 02 10 05   9a 01 03 0a 01 7a   9a 01 07 18 09 0a 01 6b 10 01   9a 01 05 0a 01 61 10 01   9a 01 05 0a 01 61 10 02")
        let message = try Scalars(protobufBytes: bytes)
        #expect(message.counts == ["": 5, "z": 0, "k": 1, "a": 2])
        let children = try Scalars(protobufBytes: hex("a2 01 03 0a 01 63"))
        #expect(children.children == ["c": Scalars()])
    }

    @Test func mapEntryMustBeLengthDelimited() {
        let error = protobufError { _ = try Scalars(protobufBytes: hex("98 01 01")) }
        #expect(error == .wrongWireType(expected: .lengthDelimited, found: .varint, ProtobufErrorLocation(offset: 2, path: [19])))
    }

    @Test func invalidUTF8IsRefusedInStringsButNotInBytes() throws {
        let error = protobufError { _ = try Scalars(protobufBytes: hex("72 02 c3 28")) }
        #expect(error == .invalidUTF8(ProtobufErrorLocation(offset: 2, path: [14])))
        #expect(try Scalars(protobufBytes: hex("7a 02 c3 28")).bytes == [0xC3, 0x28])
    }

    @Test func aKnownFieldWithAnotherWireTypeIsAnError() {
        let error = protobufError { _ = try Scalars(protobufBytes: hex("72 00  22 01 00")) }
        #expect(error == .wrongWireType(expected: .varint, found: .lengthDelimited, ProtobufErrorLocation(offset: 3, path: [4])))
    }

    @Test func errorsSayWhereInNestedMessages() {
        // children["k"] holds a uint64 whose varint is cut short.
        let error = protobufError { _ = try Scalars(protobufBytes: hex("a2 01 07 0a 01 6b 12 02 20 80")) }
        #expect(error == .truncated(ProtobufErrorLocation(offset: 9, path: [20, 2, 4])))
        #expect(error?.description == "protobuf: input ends early at byte 9 in field 20.2.4")
    }
}
