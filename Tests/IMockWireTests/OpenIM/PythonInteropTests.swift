import IMockTestSupport
import IMockWire
import Testing

/// The OpenIM payloads against the real generated classes of PyPI `openim-sdk-core` 0.1.11 (the
/// client that runs against imock in CI), run with `python3`: the same values must give the same
/// bytes both ways. Skipped when the package is not installed (`.ci/run` installs it).
@Suite(
    "OpenIM payloads against Python protobuf",
    .enabled("needs python3 with openim-sdk-core==0.1.11 (pip install openim-sdk-core==0.1.11)") {
        try await ExternalCommand.run("python3", ["-c", "import openim_sdk.proto.sdkws.sdkws_pb2"]).status == 0
    })
struct PythonInteropTests {
    /// What each Python case builds: the Swift value with the same fields.
    static let cases: [(name: String, message: any ProtobufMessage)] = [
        ("GetMaxSeqReq", OpenIMPB.GetMaxSeqReq(userID: "alice")),
        ("GetMaxSeqResp", OpenIMSamples.getMaxSeqResp),
        ("PullMessageBySeqsReq", OpenIMSamples.pullRequest),
        ("PullMessageBySeqsResp", OpenIMSamples.pullResponse),
        ("PushMessages", OpenIMSamples.push),
        ("MsgData", OpenIMSamples.msgData),
        ("TextMsgData", OpenIMSamples.textMessage),
        ("SendMsgReq", OpenIMSamples.sendRequest),
        ("SendMsgResp", OpenIMSamples.sendResponse),
        ("SetAppBackgroundStatusReq", OpenIMSamples.background),
        ("SubUserOnlineStatus", OpenIMSamples.subscribe),
        ("SubUserOnlineStatusTips", OpenIMSamples.tips),
    ]

    /// Builds the cases with the generated classes (`encode`), or parses `name hex` lines from
    /// stdin, drops unknown fields and writes them again (`reencode`); prints `name hex` lines.
    static let script = #"""
        import sys
        from openim_sdk.proto.sdkws import sdkws_pb2 as s
        from openim_sdk.proto.msg import msg_pb2 as m

        def text_message():
            return s.MsgData(sendID="bob", recvID="alice", clientMsgID="c2", serverMsgID="s2",
                senderPlatformID=5, sessionType=1, msgFrom=100, contentType=101,
                content=b'{"content":"hello"}', seq=1, sendTime=1795965415701,
                createTime=1795965415700, status=2)

        def msg_data():
            d = s.MsgData(sendID="alice", recvID="bob", groupID="group", clientMsgID="client-1",
                serverMsgID="server-1", senderPlatformID=-5, senderNickname="Alice \u00e9",
                senderFaceURL="https://example.invalid/a.png", sessionType=1, msgFrom=100,
                contentType=101, content=b'{"content":"hi"}', seq=2**63 - 1, sendTime=1795965415701,
                createTime=-1, status=2, isRead=True, atUserIDList=["bob", ""],
                attachedInfo="attached", ex="extra")
            d.options["history"] = True
            d.options["unread"] = False
            d.offlinePushInfo.CopyFrom(s.OfflinePushInfo(title="title", desc="desc", ex="ex",
                iOSPushSound="sound", iOSBadgeCount=True, signalInfo="signal"))
            return d

        def get_max_seq_resp():
            r = s.GetMaxSeqResp()
            r.maxSeqs["si_alice_bob"] = 1
            r.maxSeqs["sg_group"] = 0
            r.maxSeqs["z_max"] = 2**63 - 1
            r.minSeqs["si_alice_bob"] = -1
            return r

        def pull_resp():
            r = s.PullMessageBySeqsResp()
            r.msgs["si_alice_bob"].Msgs.extend([text_message(), msg_data()])
            r.msgs["si_alice_bob"].isEnd = True
            r.msgs["si_alice_bob"].endSeq = 1
            r.msgs["empty"].SetInParent()
            r.notificationMsgs["n_alice"].Msgs.add()
            r.notificationMsgs["n_alice"].endSeq = -7
            return r

        def push():
            p = s.PushMessages()
            p.msgs["si_alice_bob"].Msgs.append(text_message())
            return p

        def send_resp():
            r = m.SendMsgResp(serverMsgID="s3", clientMsgID="c3", sendTime=1795965415701)
            r.modify.CopyFrom(text_message())
            return r

        cases = {
            "GetMaxSeqReq": lambda: s.GetMaxSeqReq(userID="alice"),
            "GetMaxSeqResp": get_max_seq_resp,
            "PullMessageBySeqsReq": lambda: s.PullMessageBySeqsReq(userID="alice", seqRanges=[
                s.SeqRange(conversationID="si_alice_bob", begin=1, end=20, num=20),
                s.SeqRange(conversationID="sg_group", begin=0, end=-2**63, num=0)],
                order=s.PullOrderDesc),
            "PullMessageBySeqsResp": pull_resp,
            "PushMessages": push,
            "MsgData": msg_data,
            "TextMsgData": text_message,
            "SendMsgReq": lambda: m.SendMsgReq(msgData=msg_data()),
            "SendMsgResp": send_resp,
            "SetAppBackgroundStatusReq": lambda: s.SetAppBackgroundStatusReq(userID="alice", isBackground=True),
            "SubUserOnlineStatus": lambda: s.SubUserOnlineStatus(subscribeUserID=["bob", "carol"],
                unsubscribeUserID=["dave"]),
            "SubUserOnlineStatusTips": lambda: s.SubUserOnlineStatusTips(subscribers=[
                s.SubUserOnlineStatusElem(userID="bob", onlinePlatformIDs=[1, 5, -1]),
                s.SubUserOnlineStatusElem(userID="carol")]),
        }

        if sys.argv[1] == "encode":
            for name, make in cases.items():
                print(name, make().SerializeToString(deterministic=True).hex())
        else:
            for line in sys.stdin:
                name, data = line.split()
                message = type(cases[name]())()
                message.ParseFromString(bytes.fromhex(data))
                message.DiscardUnknownFields()
                print(name, message.SerializeToString(deterministic=True).hex())
        """#

    @Test("Python's encoding of each payload is the Swift encoding, and decodes to the same value")
    func pythonEncodingsMatch() async throws {
        let python = try await Self.runScript("encode")
        #expect(python.keys.sorted() == Self.cases.map(\.name).sorted())
        for (name, message) in Self.cases {
            let bytes = try #require(python[name], "no Python output for \(name)")
            #expect(bytes.hexString == message.protobufBytes().hexString, "\(name)")
            #expect(try decodes(bytes, to: message), "\(name)")
        }
    }

    @Test("Python parses each Swift encoding with no unknown field and writes the same bytes back")
    func pythonParsesSwiftEncodings() async throws {
        let input = Self.cases.map { "\($0.name) \($0.message.protobufBytes().hexString)\n" }.joined()
        let python = try await Self.runScript("reencode", stdin: input)
        for (name, message) in Self.cases {
            #expect(python[name]?.hexString == message.protobufBytes().hexString, "\(name)")
        }
    }

    private func decodes<M: ProtobufMessage>(_ bytes: [UInt8], to message: M) throws -> Bool {
        try M(protobufBytes: bytes) == message
    }

    /// Runs the script in `mode` off the cooperative pool; its `name hex` lines by name.
    private static func runScript(_ mode: String, stdin: String? = nil) async throws -> [String: [UInt8]] {
        let result = try await ExternalCommand.run("python3", ["-c", script, mode], stdin: stdin)
        try #require(result.status == 0, "python3 failed: \(result.stderr)")
        var output: [String: [UInt8]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            try #require(parts.count == 2, "unexpected line \(line)")
            output[String(parts[0])] = hex(String(parts[1]))
        }
        return output
    }
}
