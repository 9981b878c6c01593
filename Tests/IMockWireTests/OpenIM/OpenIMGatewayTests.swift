import IMockCommon
import IMockCore
import Testing

@testable import IMockWire

/// The gateway dialect's parts without sockets: the handshake query, the frame codec in gob and
/// JSON with and without gzip, the offline inbox (the end-to-end behaviour is in
/// IMockServerTests' OpenIM suites, against Python clients).
@Suite("OpenIM gateway parts")
struct OpenIMGatewayTests {
    static func request(_ query: [(String, String)], path: String = "/openim/acme/chat", headers: [(String, String)] = [])
        -> UpgradeRequest
    {
        UpgradeRequest(path: path, query: query.map { (name: $0.0, value: $0.1) }, headers: headers.map { (name: $0.0, value: $0.1) })
    }

    static let minimal = [("sendID", "amy"), ("token", "t"), ("platformID", "2"), ("operationID", "o"), ("isBackground", "T")]

    @Test func aHandshakeReadsEveryArgument() throws {
        let handshake = try OpenIMHandshake(
            Self.request(
                Self.minimal + [("sdkType", "js"), ("isMsgResp", "1"), ("sdkVersion", "v3"), ("deviceID", "dev-1")],
                headers: [("Compression", "gzip")]))
        #expect(handshake.appKey == "acme#chat" && handshake.sendID == "amy" && handshake.platform == .android)
        #expect(handshake.isBackground && handshake.gzip && handshake.encoding == .json && handshake.isMsgResp)
        #expect(handshake.loginRequest.device == DeviceDescription(platform: .openIM(.android), name: "Android", uuid: "dev-1"))
        let plain = try OpenIMHandshake(Self.request(Self.minimal + [("compression", "deflate")]))
        #expect(!plain.gzip && plain.encoding == .gob && !plain.isMsgResp && plain.deviceID == nil)
        // Without a deviceID the token and the connection's operationID stand for the device: two
        // connections sharing a token are two devices (the gateway keeps both).
        #expect(plain.loginRequest.device.uuid == OpenIMHandshake.digest("t\u{0}o"))
        let other = try OpenIMHandshake(Self.request([("sendID", "amy"), ("token", "t"), ("platformID", "2"), ("operationID", "p"), ("isBackground", "T")]))
        #expect(other.loginRequest.device.uuid != plain.loginRequest.device.uuid)
        #expect(OpenIMHandshake.digest("t").count == 16)
    }

    @Test(arguments: [
        ("token", nil, 1602, "token is empty"), ("sendID", "", 1602, "sendID is empty"),
        ("platformID", "x", 1602, "platformID is not int"), ("platformID", "0", 1602, "platformID is invalid"),
        ("operationID", nil, 1602, "operationID is empty"), ("sdkType", "rust", 1602, "sdkType is not go or js"),
        ("isMsgResp", "yes", 1602, "isMsgResp is not bool"),
        ("isBackground", nil, 500, #"strconv.ParseBool: parsing "": invalid syntax"#),
        ("isBackground", "no", 500, #"strconv.ParseBool: parsing "no": invalid syntax"#),
    ] as [(String, String?, Int, String)])
    func aBadArgumentIsRefused(name: String, value: String?, code: Int, detail: String) {
        var query = Self.minimal.filter { $0.0 != name }
        if let value { query.append((name, value)) }
        #expect(throws: OpenIMError(OpenIMErrorCode(rawValue: code)!, detail)) { try OpenIMHandshake(Self.request(query)) }
    }

    @Test func aHandshakeOutsideAnAppsPathIsRefused() {
        #expect(throws: OpenIMError(.connArgs, "the gateway is served at /openim/{org}/{app}")) {
            try OpenIMHandshake(Self.request(Self.minimal, path: "/openim/acme"))
        }
    }

    @Test(arguments: [(OpenIMHandshake.Encoding.gob, false), (.gob, true), (.json, false), (.json, true)])
    func framesRoundTrip(encoding: OpenIMHandshake.Encoding, gzip: Bool) throws {
        let codec = OpenIMFrameCodec(encoding: encoding, gzip: gzip)
        let request = OpenIMGeneralWsReq(reqIdentifier: 1003, token: "t", sendID: "amy", operationID: "o", msgIncr: "m", data: [0, 1, 255])
        #expect(try codec.decodeRequest(codec.encode(request)) == request)
        let response = OpenIMResp(reqIdentifier: 2001, msgIncr: "", operationID: "o", errCode: 1506, errMsg: "é", data: [])
        #expect(try codec.decodeResponse(codec.encode(response)) == response)
        if gzip { #expect(Array(codec.encode(response).prefix(2)) == [0x1F, 0x8B]) }
    }

    @Test("gzip frames under 1 KiB are stored blocks, longer ones deflated; both round-trip")
    func smallFramesAreStored() throws {
        let codec = OpenIMFrameCodec(encoding: .gob, gzip: true)
        for (size, deflated) in [(10, false), (700, false), (4000, true)] {
            let response = OpenIMResp(reqIdentifier: 1002, operationID: "o", data: Array(repeating: 7, count: size))
            let frame = codec.encode(response)
            let body = GobEncoder.encodeMessage(response)
            #expect((body.count >= OpenIMFrameCodec.smallestDeflatedFrame) == deflated, "\(size)")
            #expect((frame[10] & 0b110 != 0) == deflated, "\(size): the first block's type")
            #expect(try codec.decodeResponse(frame) == response)
        }
    }

    @Test func jsonFramesAreGosEncoding() throws {
        let codec = OpenIMFrameCodec(encoding: .json, gzip: false)
        let text = String(decoding: codec.encode(OpenIMResp(reqIdentifier: 1001, msgIncr: "m", data: [1, 2])), as: UTF8.self)
        #expect(text == #"{"reqIdentifier":1001,"msgIncr":"m","operationID":"","errCode":0,"errMsg":"","data":"AQI="}"#)
        #expect(String(decoding: codec.encode(OpenIMResp(reqIdentifier: 2002)), as: UTF8.self).hasSuffix(#""data":null}"#))
        #expect(try codec.decodeRequest(Array(#"{"reqIdentifier":1001,"sendID":"amy","data":null}"#.utf8))
            == OpenIMGeneralWsReq(reqIdentifier: 1001, sendID: "amy"))
        #expect(throws: OpenIMFrameError.json("data: must be base64")) {
            try codec.decodeRequest(Array(#"{"reqIdentifier":1001,"data":"!!"}"#.utf8))
        }
        #expect(throws: OpenIMFrameError.json("reqIdentifier: must be an integer")) {
            try codec.decodeRequest(Array(#"{"reqIdentifier":"x"}"#.utf8))
        }
        #expect(throws: OpenIMFrameError.json("not JSON")) { try codec.decodeRequest(Array("{".utf8)) }
    }

    @Test func aFrameThatIsNotGzipWhenGzipWasAskedForIsRefused() {
        let codec = OpenIMFrameCodec(encoding: .gob, gzip: true)
        #expect(throws: OpenIMFrameError.gzip(.corrupt("incorrect header check"))) { try codec.decodeRequest(Array("plain".utf8)) }
    }

    @Test func theInboxAnswersRanges() {
        var inbox = OpenIMOfflineInbox()
        for (id, from) in [("7", "bob"), ("3", "bob"), ("5", "carol"), ("9", "bob"), ("3", "bob")] {
            inbox.add(ChatMessage(messageId: id, from: from, to: "amy", text: "m\(id)", timestamp: 0))
        }
        #expect(inbox.maxSeqs == ["si_amy_bob": 9, "si_amy_carol": 5] && inbox.minSeqs == ["si_amy_bob": 3, "si_amy_carol": 5])
        let first = inbox.pull(OpenIMPB.SeqRange(conversationID: "si_amy_bob", begin: 1, end: 8, num: 1), descending: false)
        #expect(first.messages.map(\.messageId) == ["3"] && !first.isEnd)
        let newest = inbox.pull(OpenIMPB.SeqRange(conversationID: "si_amy_bob", begin: 0, end: 100, num: 0), descending: true)
        #expect(newest.messages.map(\.messageId) == ["9", "7", "3"] && newest.isEnd, "a message pulled again comes again")
        #expect(inbox.pull(OpenIMPB.SeqRange(conversationID: "si_x_y", begin: 1, end: 9, num: 5), descending: false).messages.isEmpty)
    }

    @Test("the inbox keeps each conversation in seq order whatever the order of arrival, each message once")
    func theInboxOrdersBySeq() {
        var inbox = OpenIMOfflineInbox()
        // 2,000 seqs in a scrambled order (7 is coprime to 2,000), each delivered twice.
        let seqs = (0..<2000).map { ($0 * 7) % 2000 + 1 }
        for round in 0..<2 {
            for seq in seqs {
                inbox.add(ChatMessage(messageId: String(seq), from: seq % 3 == 0 ? "carol" : "bob", to: "amy", text: "r\(round)", timestamp: 0))
            }
        }
        let bob = inbox.conversations["si_amy_bob"]?.map(OpenIMChatMessage.seq(of:)) ?? []
        let carol = inbox.conversations["si_amy_carol"]?.map(OpenIMChatMessage.seq(of:)) ?? []
        #expect(bob == (1...2000).filter { $0 % 3 != 0 }.map(Int64.init))
        #expect(carol == (1...2000).filter { $0 % 3 == 0 }.map(Int64.init))
        #expect(inbox.conversations.values.joined().allSatisfy { $0.text == "r0" }, "the first delivery is kept")
    }

    @Test("the openim-gateway fuzz seeds: every one is read into commands, replies or a close")
    func fuzzSeeds() throws {
        let seeds = try CorpusFiles.seeds("openim-gateway")
        #expect(seeds.count >= 30)
        var closes = 0
        for (name, bytes) in seeds {
            guard let mode = bytes.first else { continue }
            var query = [("sendID", "amy"), ("token", "t"), ("platformID", "1"), ("operationID", "o"), ("isBackground", "false")]
            if mode & 1 != 0 { query.append(("sdkType", "js")) }
            if mode & 2 != 0 { query.append(("compression", "gzip")) }
            var dialect = OpenIMGatewayDialect()
            _ = dialect.login(forUpgrade: Self.request(query))
            let body = Array(bytes.dropFirst())
            let inputs = dialect.decode(mode & 4 == 0 ? .binary(body) : .text(String(decoding: body, as: UTF8.self)))
            #expect(!inputs.isEmpty || name == "text_pong", "\(name)")
            closes += inputs.filter { if case .close = $0 { true } else { false } }.count
        }
        #expect(closes > 0 && closes < seeds.count)
    }

    @Test func chatMessagesAndMsgData() {
        let message = ChatMessage(messageId: "12", from: "bob", to: "amy", text: "hé \"x\"", timestamp: 99)
        let data = OpenIMChatMessage.msgData(message)
        #expect(data.seq == 12 && data.sessionType == 1 && data.contentType == 101 && data.msgFrom == 100 && data.status == 2)
        #expect(OpenIMChatMessage.text(of: data) == .success("hé \"x\""))
        #expect(OpenIMChatMessage.chatMessage(data) == message)
        for text in ["", "hi", "hé \"x\" \\ /", "tab\tline\n\u{1}", String(repeating: "長", count: 200)] {
            #expect(OpenIMChatMessage.content(text) == JSONValue.object([("content", .string(text))]).encoded(), "\(text)")
        }
        #expect(OpenIMChatMessage.conversationID("bob", "amy") == "si_amy_bob")
        #expect(OpenIMChatMessage.conversationID("amy", "bob") == "si_amy_bob")
        #expect(OpenIMChatMessage.conversationID("a", "a") == "si_a_a")
        var other = data
        other.contentType = 102
        #expect(OpenIMChatMessage.text(of: other) == .failure(OpenIMError(.args, "imock serves text messages (contentType 101) only")))
        other = data
        other.content = Array("plain".utf8)
        #expect(OpenIMChatMessage.text(of: other) == .failure(OpenIMError(.args, "content must be the JSON {\"content\": text}")))
        other = data
        other.recvID = ""
        #expect(OpenIMChatMessage.text(of: other) == .failure(OpenIMError(.args, "recvID is empty")))
    }
}
