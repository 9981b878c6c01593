import IMockCommon
import IMockCore
import IMockTestSupport
import Testing

@testable import IMockWire

/// What one 1002 (pull by seqs) may cost, driven through the dialect as the hub calls it: the
/// number of seq ranges, a conversation asked for twice, the messages of one answer, odd seq
/// values; and the gzip limit of a frame as the dialect decodes it (docs/PROTOCOL-OPENIM.md,
/// "Limits of one frame"). Every assertion is on what is answered and counted, none on time.
@Suite("OpenIM gateway limits")
struct OpenIMPullLimitTests {
    /// A connection of `amy` whose login delivered `offline` (gob frames, gzip when asked).
    struct Connection {
        var dialect = OpenIMGatewayDialect()
        let codec: OpenIMFrameCodec
        var requests = 0

        init(gzip: Bool = false, offline: [ChatMessage]) {
            var query = [("sendID", "amy"), ("token", "t"), ("platformID", "1"), ("operationID", "o"), ("isBackground", "false")]
            if gzip { query.append(("compression", "gzip")) }
            codec = OpenIMFrameCodec(encoding: .gob, gzip: gzip)
            _ = dialect.login(forUpgrade: OpenIMGatewayTests.request(query))
            _ = dialect.encode(push: .offlineStart(count: offline.count))
            for message in offline { _ = dialect.encode(push: .message(message)) }
            _ = dialect.encode(push: .offlineFinish)
        }

        /// What the dialect makes of one binary message.
        mutating func decode(_ bytes: [UInt8]) -> [DialectInput] { dialect.decode(.binary(bytes)) }

        /// A 1002 of `ranges`: the reply (the only input), the answer when it is not an error,
        /// and the ids of the messages the reply carries to the engine (handed over, confirmed
        /// once the device's TCP has the reply).
        mutating func pull(_ ranges: [OpenIMPB.SeqRange], order: OpenIMPB.PullOrder = .asc) throws
            -> (reply: OpenIMResp, answer: OpenIMPB.PullMessageBySeqsResp?, carried: [String])
        {
            requests += 1
            var pull = OpenIMPB.PullMessageBySeqsReq()
            pull.userID = "amy"
            pull.seqRanges = ranges
            pull.order = order
            let request = OpenIMGeneralWsReq(
                reqIdentifier: 1002, sendID: "amy", operationID: "op", msgIncr: "m\(requests)", data: pull.protobufBytes())
            let inputs = decode(codec.encode(request))
            #expect(inputs.count == 1, "one answer: \(inputs)")
            let bytes: [UInt8]
            let carried: [String]
            switch inputs.first {
            case .reply(.binary(let answer))?: (bytes, carried) = (answer, [])
            case .replyCarrying(.binary(let answer), let ids)?: (bytes, carried) = (answer, ids)
            default: throw FixtureFailure(description: "the input is not a reply: \(inputs.first.map { "\($0)" } ?? "none")")
            }
            let reply = try codec.decodeResponse(bytes)
            #expect(reply.reqIdentifier == 1002 && reply.msgIncr == "m\(requests)" && reply.operationID == "op")
            let answer = reply.errCode == 0 ? try OpenIMPB.PullMessageBySeqsResp(protobufBytes: reply.data) : nil
            return (reply, answer, carried)
        }
    }

    /// Messages from `sender` to amy with these seqs (the seq is the engine's message id).
    static func messages(from sender: String, seqs: some Sequence<Int>) -> [ChatMessage] {
        seqs.map { ChatMessage(messageId: String($0), from: sender, to: "amy", text: "t\($0)", timestamp: 0) }
    }

    static let bob = "si_amy_bob"
    static let carol = "si_amy_carol"

    static func everything(_ conversation: String, num: Int64 = 0) -> OpenIMPB.SeqRange {
        OpenIMPB.SeqRange(conversationID: conversation, begin: 0, end: .max, num: num)
    }

    static func seqs(_ pulled: OpenIMPB.PullMsgs?) -> [Int64] { pulled?.msgs.map(\.seq) ?? [] }

    // MARK: Seq ranges

    @Test("20,000 copies of one full range in one frame (gob, and gzip-compressed to a few KB) are refused with an ArgsError; nothing is handed over")
    func twentyThousandIdenticalRanges() throws {
        for gzip in [false, true] {
            var connection = Connection(gzip: gzip, offline: Self.messages(from: "bob", seqs: 1...2000))
            let refused = try connection.pull(Array(repeating: Self.everything(Self.bob), count: 20_000))
            #expect(refused.reply.errCode == 1001)
            #expect(refused.reply.errMsg == "ArgsError: seqRanges: 20000 ranges; one pull may ask for 100")
            #expect(refused.reply.data.isEmpty && refused.carried.isEmpty)
            // The connection goes on: the same range once is answered, and carries what it returns.
            let once = try connection.pull([Self.everything(Self.bob)])
            #expect(Self.seqs(once.answer?.msgs[Self.bob]) == (1...2000).map(Int64.init) && once.answer?.msgs[Self.bob]?.isEnd == true)
            #expect(once.carried.count == 2000)
        }
    }

    @Test("at most 100 ranges, or one per conversation with offline messages when there are more (what 1001 lists)")
    func rangeCount() throws {
        var connection = Connection(offline: Self.messages(from: "bob", seqs: 1...3))
        let hundred = (0..<100).map { Self.everything($0 == 0 ? Self.bob : "si_amy_u\($0)") }
        let answered = try connection.pull(hundred)
        #expect(answered.answer?.msgs.count == 100 && Self.seqs(answered.answer?.msgs[Self.bob]) == [1, 2, 3])
        let refused = try connection.pull(hundred + [Self.everything("si_amy_u100")])
        #expect(refused.reply.errMsg == "ArgsError: seqRanges: 101 ranges; one pull may ask for 100" && refused.carried.isEmpty)
        // 150 senders: an SDK before v3.2.1 (and imock's reference client) asks for all 150 at once.
        let senders = (0..<150).map { "u\(1000 + $0)" }
        var busy = Connection(offline: senders.enumerated().map { Self.messages(from: $1, seqs: [$0 + 1])[0] })
        let conversations = senders.map { Self.everything("si_amy_\($0)") }
        let all = try busy.pull(conversations)
        #expect(all.answer?.msgs.count == 150 && all.carried.count == 150)
        let more = try busy.pull(conversations + [Self.everything(Self.bob)])
        #expect(more.reply.errMsg == "ArgsError: seqRanges: 151 ranges; one pull may ask for 150")
    }

    @Test("a conversation asked for in two ranges is refused (an SDK builds its ranges from a map), and nothing is handed over")
    func aConversationTwice() throws {
        var connection = Connection(offline: Self.messages(from: "bob", seqs: 1...10))
        let twice = [
            OpenIMPB.SeqRange(conversationID: Self.bob, begin: 1, end: 5, num: 0),
            OpenIMPB.SeqRange(conversationID: Self.carol, begin: 1, end: 5, num: 0),
            OpenIMPB.SeqRange(conversationID: Self.bob, begin: 6, end: 10, num: 0),
        ]
        let refused = try connection.pull(twice)
        #expect(refused.reply.errCode == 1001 && refused.carried.isEmpty)
        #expect(refused.reply.errMsg == "ArgsError: seqRanges: conversation si_amy_bob is asked for more than once")
        let first = try connection.pull([twice[0]])
        #expect(Self.seqs(first.answer?.msgs[Self.bob]) == [1, 2, 3, 4, 5] && first.carried == ["1", "2", "3", "4", "5"])
    }

    // MARK: Messages per answer

    @Test("one answer holds at most 10,000 messages, across its ranges: a range cut short or left out says isEnd false, and the next pull gets the rest")
    func messagesPerAnswer() throws {
        let offline = Self.messages(from: "bob", seqs: 1...10_001) + Self.messages(from: "carol", seqs: 20_001...20_005)
        var connection = Connection(offline: offline)
        let first = try connection.pull([Self.everything(Self.bob, num: .max), Self.everything(Self.carol)])
        let bob = first.answer?.msgs[Self.bob]
        #expect(Self.seqs(bob) == (1...10_000).map(Int64.init) && bob?.isEnd == false && bob?.endSeq == 10_000)
        let carol = first.answer?.msgs[Self.carol]
        #expect(carol != nil && carol?.msgs.isEmpty == true && carol?.isEnd == false)
        #expect(first.carried.count == 10_000)
        let rest = try connection.pull([
            OpenIMPB.SeqRange(conversationID: Self.bob, begin: 10_001, end: .max, num: 0), Self.everything(Self.carol),
        ])
        #expect(Self.seqs(rest.answer?.msgs[Self.bob]) == [10_001] && rest.answer?.msgs[Self.bob]?.isEnd == true)
        #expect(Self.seqs(rest.answer?.msgs[Self.carol]) == (20_001...20_005).map(Int64.init))
        #expect(rest.answer?.msgs[Self.carol]?.isEnd == true && rest.carried.count == 6)
        // Descending: the newest 10,000.
        let newest = try connection.pull([Self.everything(Self.bob)], order: .desc)
        #expect(Self.seqs(newest.answer?.msgs[Self.bob]) == (2...10_001).reversed().map(Int64.init))
        #expect(newest.answer?.msgs[Self.bob]?.isEnd == false && newest.answer?.msgs[Self.bob]?.endSeq == 2)
    }

    // MARK: Odd seqs

    @Test("begin after end, the ends of Int64 and a negative num: no trap, and nothing outside the range")
    func oddRanges() throws {
        var connection = Connection(offline: Self.messages(from: "bob", seqs: [3, 7, 9]))
        let cases: [(begin: Int64, end: Int64, num: Int64, seqs: [Int64], isEnd: Bool)] = [
            (7, 3, 0, [], true), (9, 7, 1, [], true), (.max, .min, .max, [], true),
            (.min, .max, .max, [3, 7, 9], true), (.min, .max, .min, [3, 7, 9], true), (.min, .max, -1, [3, 7, 9], true),
            (.max, .max, 0, [], true), (.min, .min, 0, [], true), (.min, 3, 0, [3], true), (9, .max, 0, [9], true),
            (4, 6, 0, [], true), (7, 9, 0, [7, 9], true), (3, 9, 2, [3, 7], false), (8, 8, 0, [], true),
        ]
        for (begin, end, num, seqs, isEnd) in cases {
            let pulled = try connection.pull([OpenIMPB.SeqRange(conversationID: Self.bob, begin: begin, end: end, num: num)])
            let messages = pulled.answer?.msgs[Self.bob]
            #expect(Self.seqs(messages) == seqs && messages?.isEnd == isEnd, "\(begin)…\(end) num \(num)")
        }
        let newest = try connection.pull([OpenIMPB.SeqRange(conversationID: Self.bob, begin: 3, end: 9, num: 2)], order: .desc)
        #expect(Self.seqs(newest.answer?.msgs[Self.bob]) == [9, 7] && newest.answer?.msgs[Self.bob]?.isEnd == false)
    }

    @Test("a range is found by binary search: O(log n) seq reads in a conversation of 100,000, the same messages as a scan")
    func rangeLookupIsABinarySearch() {
        let seqs = (0..<100_000).map { Int64($0) * 3 - 150_000 }  // sorted, negative and positive
        var random = SplitMix64(seed: 1002)
        var reads = 0
        let bounds: [(Int64, Int64)] = [(.min, .max), (.max, .min), (0, 0), (-150_000, -150_000), (1, 2), (.min, -150_001)]
            + (0..<40).map { _ in
                let a = Int64(truncatingIfNeeded: random.next() % 400_000) - 200_000
                let b = Int64(truncatingIfNeeded: random.next() % 400_000) - 200_000
                return (a, b)
            }
        for (begin, end) in bounds {
            reads = 0
            let found = OpenIMOfflineInbox.indices(in: seqs, from: begin, through: end) { reads += 1; return $0 }
            let scanned = seqs.indices.filter { begin <= seqs[$0] && seqs[$0] <= end }
            #expect(Array(found) == scanned, "\(begin)…\(end)")
            #expect(reads <= 2 * 17, "\(begin)…\(end): \(reads) seq reads")  // 2⌈log₂ 100,000⌉ = 34
        }
    }

    // MARK: gzip

    /// A 1001 request whose gob encoding is exactly `size` bytes (its data is zeros: a gzip bomb).
    static func newestSeqRequest(encodedSize size: Int) throws -> [UInt8] {
        func encoded(_ dataCount: Int) -> [UInt8] {
            GobEncoder.encodeMessage(
                OpenIMGeneralWsReq(reqIdentifier: 1001, sendID: "amy", msgIncr: "big", data: [UInt8](repeating: 0, count: dataCount)))
        }
        let overhead = encoded(size / 2).count - size / 2
        let frame = encoded(size - overhead)
        try #require(frame.count == size)
        return frame
    }

    @Test("the dialect refuses a gzip frame that inflates past 1 MiB (1,048,576 bytes) with close 1007, and serves one of exactly 1 MiB")
    func gzipBombThroughTheDialect() throws {
        var connection = Connection(gzip: true, offline: [])
        let limit = 1 << 20
        let over = Gzip.compress(try Self.newestSeqRequest(encodedSize: limit + 1))
        #expect(over.count < 4096, "a bomb: \(over.count) bytes on the wire")
        #expect(connection.decode(over) == [.close(WireClose(code: 1007, reason: "gzip: output exceeds 1048576 bytes"))])
        let atLimit = connection.decode(Gzip.compress(try Self.newestSeqRequest(encodedSize: limit)))
        guard case .reply(.binary(let bytes))? = atLimit.first, atLimit.count == 1 else {
            Issue.record("a frame of exactly the limit is not answered: \(atLimit)")
            return
        }
        let reply = try connection.codec.decodeResponse(bytes)
        #expect(reply.reqIdentifier == 1001 && reply.msgIncr == "big" && reply.errCode == 0)
    }
}
