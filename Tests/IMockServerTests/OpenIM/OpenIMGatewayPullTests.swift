import IMockCommon
import IMockCore
import IMockNet
import IMockTestSupport
import IMockWire
import Testing

/// The gateway's 1002 over a live server socket, as a Go SDK sends it (gzip(gob) frames): the
/// bounds of one pull (docs/PROTOCOL-OPENIM.md, "Limits of one frame") hold on the server's own path.
@Suite("OpenIM gateway pulls over a socket")
struct OpenIMGatewayPullTests {
    /// One gateway connection of `user`: gzip(gob) frames, as the Go SDK sends them.
    final class Device: Sendable {
        let socket: TestWebSocket
        let user: String
        static let codec = OpenIMFrameCodec(encoding: .gob, gzip: true)

        init(_ fixture: OpenIMServerFixture, loop: EventLoop, user: String, platform: Int, admin: String) async throws {
            let token = try fixture.userToken(user, platform: platform, admin: admin)
            let query = "sendID=\(user)&token=\(token)&platformID=\(platform)&operationID=op-\(user)&isBackground=false&compression=gzip"
            socket = try await TestWebSocket.connect(loop: loop, port: fixture.server.port, path: "/openim/acme/chat?" + query)
            self.user = user
        }

        func send(_ reqIdentifier: Int, _ data: [UInt8], msgIncr: String) {
            let request = OpenIMGeneralWsReq(reqIdentifier: reqIdentifier, sendID: user, operationID: "op", msgIncr: msgIncr, data: data)
            socket.send(binary: Self.codec.encode(request))
        }

        /// The next frame, which must be the answer to `msgIncr`.
        func answer(to msgIncr: String) async throws -> OpenIMResp {
            guard case .binary(let bytes)? = await socket.next() else { throw FixtureFailure(description: "no frame for \(msgIncr)") }
            let response = try Self.codec.decodeResponse(bytes)
            try #require(response.msgIncr == msgIncr, "\(response)")
            return response
        }

        /// A 1:1 text to `recipient`, answered.
        func sendText(_ text: String, to recipient: String, msgIncr: String) async throws {
            var message = OpenIMPB.MsgData()
            message.sendID = user
            message.recvID = recipient
            message.clientMsgID = msgIncr
            message.sessionType = OpenIMChatMessage.singleChat
            message.contentType = OpenIMChatMessage.text
            message.content = JSONValue.object([("content", .string(text))]).encoded()
            send(OpenIMGatewayDialect.Request.sendMessage, message.protobufBytes(), msgIncr: msgIncr)
            #expect(try await answer(to: msgIncr).errCode == 0)
        }

        /// A 1001, answered.
        func newest(msgIncr: String) async throws -> OpenIMPB.GetMaxSeqResp {
            send(OpenIMGatewayDialect.Request.getNewestSeq, OpenIMPB.GetMaxSeqReq(userID: user).protobufBytes(), msgIncr: msgIncr)
            return try OpenIMPB.GetMaxSeqResp(protobufBytes: try await answer(to: msgIncr).data)
        }

        /// A 1002 of `ranges`, answered.
        func pull(_ ranges: [OpenIMPB.SeqRange], msgIncr: String) async throws -> OpenIMResp {
            var pull = OpenIMPB.PullMessageBySeqsReq()
            pull.userID = user
            pull.seqRanges = ranges
            send(OpenIMGatewayDialect.Request.pullMessageBySeqs, pull.protobufBytes(), msgIncr: msgIncr)
            return try await answer(to: msgIncr)
        }
    }

    @Test("a frame repeating one full range 20,000 times is refused with ArgsError; the connection goes on and nothing was acked")
    func twentyThousandRanges() async throws {
        let fixture = try await OpenIMServerFixture()
        let loop = try EventLoop()
        loop.start()
        defer {
            loop.stop()
            Task { await fixture.stop() }
        }
        let admin = try fixture.adminToken()
        #expect(try fixture.code("/user/user_register", #"{"users":[{"userID":"alice"},{"userID":"bob"}]}"#, token: admin) == 0)
        let bob = try await Device(fixture, loop: loop, user: "bob", platform: 2, admin: admin)
        for index in 1...3 { try await bob.sendText("m\(index)", to: "alice", msgIncr: "s\(index)") }

        let alice = try await Device(fixture, loop: loop, user: "alice", platform: 1, admin: admin)
        let conversation = OpenIMChatMessage.conversationID("alice", "bob")
        let everything = OpenIMPB.SeqRange(conversationID: conversation, begin: 0, end: .max, num: 0)
        let refused = try await alice.pull(Array(repeating: everything, count: 20_000), msgIncr: "p1")
        #expect(refused.reqIdentifier == 1002 && refused.errCode == 1001 && refused.data.isEmpty)
        #expect(refused.errMsg == "ArgsError: seqRanges: 20000 ranges; one pull may ask for 100")

        #expect(try await alice.newest(msgIncr: "n1").maxSeqs.keys.sorted() == [conversation], "the connection still answers")

        // Nothing was acked: a new connection (the old one is kicked by policy 1) is offered
        // all three again, and one range is answered.
        let again = try await Device(fixture, loop: loop, user: "alice", platform: 1, admin: admin)
        let newest = try await again.newest(msgIncr: "n2")
        #expect(newest.maxSeqs.keys.sorted() == [conversation] && (newest.maxSeqs[conversation] ?? 0) > (newest.minSeqs[conversation] ?? 0))
        let answered = try await again.pull([everything], msgIncr: "p2")
        let pulled = try OpenIMPB.PullMessageBySeqsResp(protobufBytes: answered.data).msgs[conversation]
        #expect(answered.errCode == 0 && pulled?.msgs.map(\.content) == (1...3).map { Array(#"{"content":"m\#($0)"}"#.utf8) })
        #expect(pulled?.isEnd == true)
    }
}
