import IMockCommon
import IMockCore
@testable import IMockWire
import Testing

/// The message path's own readers and writers (``OpenIMPB/MsgData/scanned(_:)``,
/// ``OpenIMPB/MsgsByConversation/scanned(_:)``, the content's text, the push and send writers,
/// the gzip member written in place) held to the general code: the same values, the same
/// bytes, and every input the fast path does not take left to the general reader.
@Suite("OpenIM fast paths")
struct OpenIMFastPathTests {
    static let texts = ["", "hi", "t1795965415701", "é ü 中文 🎉", #"a "quoted" \ back"#, "line\nbreak\ttab\u{1}", String(repeating: "x", count: 300)]

    static var chats: [ChatMessage] {
        var chats: [ChatMessage] = []
        for (index, text) in texts.enumerated() {
            chats.append(ChatMessage(messageId: "\(1_000 + index)", from: "alice", to: "bob", text: text, timestamp: 1_795_965_415_701))
        }
        chats.append(ChatMessage(messageId: "not-a-number", from: "zed", to: "amy", text: "x", timestamp: -1))
        chats.append(ChatMessage(messageId: "", from: "", to: "", text: "", timestamp: 0))
        chats.append(ChatMessage(messageId: "9223372036854775807", from: "b", to: "a", text: "y", timestamp: .max))
        return chats
    }

    @Test("the push's protobuf is the bytes of PushMessages around msgData(_:)")
    func pushBytes() {
        for chat in Self.chats {
            var messages = OpenIMPB.PushMessages()
            messages.msgs[OpenIMChatMessage.conversationID(of: chat)] = OpenIMPB.PullMsgs(msgs: [OpenIMChatMessage.msgData(chat)])
            #expect(OpenIMChatMessage.pushMessagesBytes(chat) == messages.protobufBytes(), "\(chat)")
        }
    }

    @Test("the client's send is the bytes of msgData(_:) with the client's fields")
    func sendBytes() {
        for chat in Self.chats {
            for platform: Int32 in [0, 1, 5, -3] {
                var data = OpenIMChatMessage.msgData(ChatMessage(messageId: chat.messageId, from: chat.from, to: chat.to, text: chat.text, timestamp: 0))
                data.seq = 0
                data.status = OpenIMChatMessage.sendingStatus
                data.senderPlatformID = platform
                let chatWithoutTime = ChatMessage(messageId: chat.messageId, from: chat.from, to: chat.to, text: chat.text, timestamp: 0)
                #expect(OpenIMChatMessage.sendBytes(chatWithoutTime, senderPlatformID: platform) == data.protobufBytes())
            }
        }
    }

    @Test("a content's text is read as the JSON parser reads it, for written and odd contents")
    func contentText() {
        var contents = Self.texts.map { OpenIMChatMessage.content($0) }
        contents += [
            #"{"content":"a"}"#, #"{"content": "a"}"#, #"{"content":"a","x":1}"#, #"{"content":"\u0041"}"#,
            #"{"content":"a"}  "#, #"{"content":"a""#, #"{"content":""}"#, #"{"content":"}"#, #"{"content":"a"}"}"#,
            #"{"x":"a"}"#, "", "{}", #"{"content":1}"#, #"{"content":"a"} "#,
        ].map { Array($0.utf8) }
        contents.append(Array(#"{"content":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8))  // not UTF-8
        contents.append(Array(#"{"content":""#.utf8) + [0x7F] + Array(#""}"#.utf8))
        for content in contents {
            let parsed = (try? JSONValue.parse(content))?["content"]?.stringValue
            #expect(OpenIMChatMessage.text(ofContent: content) == parsed, "\(content.hexString)")
        }
    }

    @Test("MsgData: the scan reads what the general reader reads, or leaves it to it")
    func msgDataScan() throws {
        var inputs = Self.chats.map { OpenIMChatMessage.msgData($0).protobufBytes() }
        inputs += Self.chats.map { OpenIMChatMessage.sendBytes($0, senderPlatformID: 5) }
        inputs.append(OpenIMSamples.msgData.protobufBytes())  // map, nested and repeated fields: left
        inputs.append(OpenIMSamples.textMessage.protobufBytes())
        Self.expectScanAgrees(over: inputs, scan: OpenIMPB.MsgData.scanned) { try? OpenIMPB.MsgData(protobufBytes: $0) }
        for chat in Self.chats {
            #expect(OpenIMPB.MsgData.scanned(OpenIMChatMessage.msgData(chat).protobufBytes()) == OpenIMChatMessage.msgData(chat))
        }
    }

    @Test("a send's recipient, id and text: what decoding and text(of:) give, or left to them")
    func sendScan() {
        var inputs = Self.chats.map { OpenIMChatMessage.sendBytes($0, senderPlatformID: 5) }
        inputs += Self.chats.map { OpenIMChatMessage.msgData($0).protobufBytes() }
        inputs.append(OpenIMSamples.msgData.protobufBytes())
        inputs.append(OpenIMSamples.textMessage.protobufBytes())
        var scanned = 0
        for input in Self.mutations(of: inputs) {
            guard let send = OpenIMChatMessage.scannedSend(input) else { continue }
            scanned += 1
            let data = try? OpenIMPB.MsgData.decoded(input)
            let text = data.map { OpenIMChatMessage.text(of: $0) }
            #expect(text == .success(send.text), "\(input.hexString)")
            #expect(data?.recvID == send.recvID && data?.clientMsgID == send.clientMsgID, "\(input.hexString)")
        }
        #expect(scanned > 1_000)
    }

    @Test("PushMessages: the scan reads what the general reader reads, or leaves it to it")
    func pushScan() throws {
        var inputs = Self.chats.map { OpenIMChatMessage.pushMessagesBytes($0) }
        var two = OpenIMPB.PushMessages()
        two.msgs["si_a_b"] = OpenIMPB.PullMsgs(msgs: [OpenIMSamples.textMessage, OpenIMSamples.textMessage], isEnd: true, endSeq: -4)
        two.msgs["si_a_c"] = OpenIMPB.PullMsgs()
        two.notificationMsgs["n"] = OpenIMPB.PullMsgs(msgs: [OpenIMSamples.textMessage], endSeq: 9)
        inputs.append(two.protobufBytes())
        inputs.append(two.protobufBytes() + two.protobufBytes())  // every key twice: the last wins
        Self.expectScanAgrees(over: inputs, scan: OpenIMPB.PushMessages.scanned) { try? OpenIMPB.PushMessages(protobufBytes: $0) }
        #expect(try OpenIMPB.PushMessages.decoded(two.protobufBytes()) == two)
    }

    @Test("a push's messages without a map: what the general reader's map gives, or left to it")
    func oneConversation() throws {
        var inputs = Self.chats.map { OpenIMChatMessage.pushMessagesBytes($0) }
        var two = OpenIMPB.PushMessages()
        two.msgs["si_a_b"] = OpenIMPB.PullMsgs(msgs: [OpenIMSamples.textMessage, OpenIMSamples.textMessage], isEnd: true)
        inputs.append(two.protobufBytes())
        two.msgs["si_a_c"] = OpenIMPB.PullMsgs()
        inputs.append(two.protobufBytes())
        var scanned = 0
        for input in Self.mutations(of: inputs) {
            guard let messages = OpenIMPB.PushMessages.scannedMessagesOfOneConversation(input) else { continue }
            scanned += 1
            let general = try? OpenIMPB.PushMessages(protobufBytes: input)
            #expect(general?.msgs.count == 1 && general?.notificationMsgs.isEmpty == true, "\(input.hexString)")
            #expect(general?.msgs.first?.value.msgs == messages, "\(input.hexString)")
        }
        #expect(scanned > 1_000)
    }

    @Test("SendMsgResp: the scan reads what the general reader reads, or leaves it to it")
    func sendMsgResp() throws {
        var modified = OpenIMPB.SendMsgResp(serverMsgID: "s", clientMsgID: "c", sendTime: 5)
        modified.modify = OpenIMSamples.textMessage
        let inputs = [
            OpenIMPB.SendMsgResp(serverMsgID: "1003", clientMsgID: "17", sendTime: 1_795_965_415_701),
            OpenIMPB.SendMsgResp(serverMsgID: "é", clientMsgID: "", sendTime: -1), OpenIMPB.SendMsgResp(), modified,
        ].map { $0.protobufBytes() }
        for input in Self.mutations(of: inputs) {
            let general = Result { () throws(ProtobufError) in try OpenIMPB.SendMsgResp(protobufBytes: input) }
            let decoded = Result { () throws(ProtobufError) in try OpenIMPB.SendMsgResp.decoded(input) }
            #expect(decoded == general, "\(input.hexString)")
        }
    }

    @Test("a gob frame written in place in its gzip member is the member of the frame")
    func gzipInPlace() throws {
        let small = OpenIMResp(reqIdentifier: 2001, data: OpenIMChatMessage.pushMessagesBytes(Self.chats[1]))
        let edge = OpenIMResp(reqIdentifier: 1003, msgIncr: "m", data: Array(repeating: 7, count: 900))
        let large = OpenIMResp(reqIdentifier: 1002, data: Array(repeating: 1, count: 5_000))
        let codec = OpenIMFrameCodec(encoding: .gob, gzip: true)
        for length in 880..<1_100 {
            let response = OpenIMResp(reqIdentifier: 1, data: Array(repeating: 3, count: length))
            try Self.checkFrame(response, codec)
        }
        for response in [small, edge, large, OpenIMResp()] { try Self.checkFrame(response, codec) }
        let request = OpenIMGeneralWsReq(reqIdentifier: 1003, sendID: "alice", operationID: "o", msgIncr: "1", data: [1, 2, 3])
        let body = GobEncoder.encodeMessage(request)
        #expect(codec.encode(request) == Gzip.compress(body, level: .stored))
        #expect(try codec.decodeRequest(codec.encode(request)) == request)
    }

    static func checkFrame(_ response: OpenIMResp, _ codec: OpenIMFrameCodec) throws {
        let body = GobEncoder.encodeMessage(response)
        let level: Gzip.Level = body.count < OpenIMFrameCodec.smallestDeflatedFrame ? .stored : .standard
        let frame = codec.encode(response)
        #expect(frame == Gzip.compress(body, level: level), "\(body.count)")
        #expect(try codec.decodeResponse(frame) == response)
    }

    /// `inputs`, every truncation of each, and each with bytes changed at every position
    /// (seeded), so that the scans meet malformed varints, lengths past the end, other wire
    /// types and field numbers, and invalid UTF-8.
    /// Over every mutation of `inputs`: what `scan` reads equals what the general reader
    /// reads, and the scan takes more than a thousand of them.
    static func expectScanAgrees<Value: Equatable>(
        over inputs: [[UInt8]], scan: ([UInt8]) -> Value?, general: ([UInt8]) -> Value?
    ) {
        var scanned = 0
        for input in mutations(of: inputs) {
            guard let read = scan(input) else { continue }
            scanned += 1
            #expect(read == general(input), "\(input.hexString)")
        }
        #expect(scanned > 1_000)
    }

    static func mutations(of inputs: [[UInt8]]) -> [[UInt8]] {
        var random = SplitMix64(seed: 27)
        var all: [[UInt8]] = []
        for input in inputs {
            all.append(input)
            for length in 0..<input.count { all.append(Array(input.prefix(length))) }
            for index in input.indices {
                for replacement: UInt8 in [0x00, 0x01, 0x02, 0x08, 0x0A, 0x12, 0x7F, 0x80, 0xFF, 0xC3, UInt8.random(in: 0...255, using: &random)] {
                    var copy = input
                    copy[index] = replacement
                    all.append(copy)
                }
            }
        }
        return all
    }
}
