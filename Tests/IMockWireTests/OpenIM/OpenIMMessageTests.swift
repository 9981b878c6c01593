import IMockWire
import Testing

@Suite("OpenIM messages")
struct OpenIMMessageTests {
    @Test func theSamplesCoverEveryMessageType() {
        #expect(coversEveryType(OpenIMSamples.all, OpenIMPB.messageTypes))
    }

    @Test func everyMessageRoundTrips() throws {
        for message in OpenIMSamples.all {
            #expect(try roundTrips(message), "\(type(of: message))")
        }
    }

    @Test func proto3DefaultsAreNotWritten() {
        #expect(OpenIMPB.MsgData().protobufBytes() == [])
        #expect(OpenIMPB.PullMessageBySeqsReq().protobufBytes() == [])
        #expect(OpenIMPB.SendMsgResp(serverMsgID: "", clientMsgID: "", sendTime: 0).protobufBytes() == [])
        // An empty nested message that is set is still written.
        var message = OpenIMPB.MsgData()
        message.offlinePushInfo = OpenIMPB.OfflinePushInfo()
        #expect(message.protobufBytes() == hex("a2 01 00"))
    }

    /// `GetMaxSeqResp{maxSeqs:{"a":0, "":5}, minSeqs:{"b":-1}}` as Python's protobuf writes it
    /// (deterministic): key and value written even when they are defaults, but the empty key
    /// last. Entry order carries no meaning: it decodes to the same map, and Swift writes keys in
    /// byte order, as Go's deterministic marshalling does.
    @Test func mapsAreReadInAnyOrderAndWrittenSortedByKey() throws {
        var response = OpenIMPB.GetMaxSeqResp()
        response.maxSeqs = ["a": 0, "": 5]
        response.minSeqs = ["b": -1]
        let python = hex("0a050a01611000 0a040a001005 120e0a016210ffffffffffffffffff01")
        #expect(try OpenIMPB.GetMaxSeqResp(protobufBytes: python) == response)
        #expect(response.protobufBytes() == hex("0a040a001005 0a050a01611000 120e0a016210ffffffffffffffffff01"))
    }

    @Test func packedPlatformIDsAreWrittenPackedAndReadEitherWay() throws {
        let element = OpenIMPB.SubUserOnlineStatusElem(userID: "u", onlinePlatformIDs: [1, 2, -1])
        #expect(element.protobufBytes() == hex("0a0175 120c 0102ffffffffffffffffff01"))
        #expect(try OpenIMPB.SubUserOnlineStatusElem(protobufBytes: hex("10 01 10 02 12 01 03")).onlinePlatformIDs == [1, 2, 3])
    }

    @Test func thePythonClientsTextMessageFields() throws {
        let bytes = OpenIMSamples.textMessage.protobufBytes()
        // sendID 1, recvID 2, clientMsgID 4, serverMsgID 5, senderPlatformID 6, sessionType 9,
        // msgFrom 10, contentType 11, content 12, seq 14, sendTime 15, createTime 16, status 17.
        var reader = try ProtobufReader(bytes)
        var numbers: [Int] = []
        while let field = try reader.nextField() { numbers.append(field.number) }
        #expect(numbers == [1, 2, 4, 5, 6, 9, 10, 11, 12, 14, 15, 16, 17])
    }

    @Test func unknownEnumNumbersAndFieldsAreKept() throws {
        let request = try OpenIMPB.PullMessageBySeqsReq(protobufBytes: hex("18 07  fa 01 00  0a 01 61"))
        #expect(request.order == .unrecognized(7))
        #expect(request.userID == "a")
        #expect(request.protobufBytes() == hex("0a 01 61  18 07"))
    }

    @Test func malformedPayloadsFailCleanly() {
        #expect(
            protobufError { _ = try OpenIMPB.PushMessages(protobufBytes: hex("0a 05 0a 01 61 12 09")) }
                == .lengthOutOfBounds(length: 9, remaining: 0, ProtobufErrorLocation(offset: 6, path: [1, 2])))
        #expect(
            protobufError { _ = try OpenIMPB.MsgData(protobufBytes: hex("9a 01 03 0a 01 ff")) }
                == .invalidUTF8(ProtobufErrorLocation(offset: 5, path: [19, 1])))
        #expect(
            protobufError { _ = try OpenIMPB.GetMaxSeqResp(protobufBytes: hex("08 01")) }
                == .wrongWireType(expected: .lengthDelimited, found: .varint, ProtobufErrorLocation(offset: 1, path: [1])))
    }
}
