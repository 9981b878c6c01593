import IMockWire
import Testing

@Suite("Msync messages")
struct MsyncMessageTests {
    @Test func theSamplesCoverEveryMessageType() {
        #expect(coversEveryType(MsyncSamples.all, MsyncPB.messageTypes))
    }

    @Test func everyMessageRoundTrips() throws {
        for message in MsyncSamples.all {
            #expect(try roundTrips(message), "\(type(of: message))")
        }
        #expect(try roundTrips(MsyncPB.MSync()))
        #expect(MsyncPB.MSync().protobufBytes() == [])
    }

    @Test func payloadErrorsSayTheyAreInsideThePayload() {
        var frame = MsyncPB.MSync()
        frame.payload = hex("42 05 08")
        let error = protobufError { _ = try frame.decodePayload(as: MsyncPB.Provision.self) }
        #expect(error == .lengthOutOfBounds(length: 5, remaining: 1, ProtobufErrorLocation(offset: 1, path: [9, 8])))
        var meta = MsyncPB.Meta()
        meta.payload = hex("0a")
        #expect(
            protobufError { _ = try meta.decodePayload(as: MsyncPB.MessageBody.self) }
                == .wrongWireType(expected: .varint, found: .lengthDelimited, ProtobufErrorLocation(offset: 1, path: [6, 1])))
    }

    @Test func unknownFieldsAreSkipped() throws {
        // MSync with an unknown field 15 (a string) and 99 (a fixed32) around the command.
        let frame = try MsyncPB.MSync(protobufBytes: hex("7a 03 61 62 63  40 02  9d 06 01 02 03 04"))
        #expect(frame == { var expected = MsyncPB.MSync(); expected.command = .notice; return expected }())
        // Provision field 15 is not in the schema.
        let provision = try MsyncPB.Provision(protobufBytes: hex("78 01 6a 01 72"))
        #expect(provision.resource == "r")
    }

    @Test func packedRepeatedEnumsAreAcceptedThoughTheSDKWritesThemUnpacked() throws {
        let frame = try MsyncPB.MSync(protobufBytes: hex("5a 03 00 01 02  58 05"))
        #expect(frame.encryptType == [.none, .aes128CBC, .aes256CBC, .unrecognized(5)])
        #expect(frame.protobufBytes() == hex("58 00 58 01 58 02 58 05"))
    }

    @Test func integerEdgesSurvive() throws {
        var meta = MsyncPB.Meta()
        meta.id = .max
        meta.timestamp = 1 << 63
        let bytes = meta.protobufBytes()
        #expect(bytes == hex("08 ff ff ff ff ff ff ff ff ff 01  20 80 80 80 80 80 80 80 80 80 01"))
        #expect(try MsyncPB.Meta(protobufBytes: bytes) == meta)
        // A negative int32 sent as a 10-byte varint into a uint32 field is truncated.
        #expect(try MsyncPB.MSync(protobufBytes: hex("50 ff ff ff ff ff ff ff ff ff 01")).deviceId == .max)
        #expect(protobufError { _ = try MsyncPB.Meta(protobufBytes: hex("08 ff ff ff ff ff ff ff ff ff ff")) } != nil)
    }

    @Test func truncatedFramesFailCleanly() {
        let reply = WebSDKFrameTests.recommendedReply
        #expect(
            protobufError { _ = try MsyncPB.MSync(protobufBytes: Array(reply.prefix(5))) }
                == .lengthOutOfBounds(length: 0x39, remaining: 1, ProtobufErrorLocation(offset: 3, path: [9])))
        for length in 0..<reply.count {
            let prefix = Array(reply.prefix(length))
            // Only the prefixes that end between two top-level fields decode.
            let decodes = (try? MsyncPB.MSync(protobufBytes: prefix)) != nil
            #expect(decodes == [0, 2].contains(length), "prefix of \(length) bytes")
        }
    }

    @Test func wrongWireTypesFailCleanly() {
        #expect(
            protobufError { _ = try MsyncPB.MSync(protobufBytes: hex("42 00")) }
                == .wrongWireType(expected: .varint, found: .lengthDelimited, ProtobufErrorLocation(offset: 1, path: [8])))
        #expect(
            protobufError { _ = try MsyncPB.MSync(protobufBytes: hex("48 00")) }
                == .wrongWireType(expected: .lengthDelimited, found: .varint, ProtobufErrorLocation(offset: 1, path: [9])))
        #expect(
            protobufError { _ = try MsyncPB.CommSyncDL(protobufBytes: hex("25 00 00 00 00")) }
                == .wrongWireType(expected: .lengthDelimited, found: .fixed32, ProtobufErrorLocation(offset: 1, path: [4])))
    }

    @Test func theLastOneofValueWins() throws {
        let value = try MsyncPB.KeyValue(protobufBytes: hex("18 05  32 01 78"))
        #expect(value.value == .string("x"))
        #expect(try MsyncPB.KeyValue(protobufBytes: hex("32 01 78  18 05")).value == .varint(5))
    }
}
