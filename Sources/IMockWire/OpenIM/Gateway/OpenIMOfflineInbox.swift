import IMockCommon
import IMockCore

/// One gateway connection's offline messages: the engine delivers them all at login (offline
/// start, messages, finish), the connection keeps them by conversation and the SDK asks for
/// them (1001 newest seq, 1002 pull by seq range). A pull's answer carries the messages it
/// returns to the engine, which holds them until the device has the answer (a pulled message is
/// confirmed when it arrives, not when it is answered).
struct OpenIMOfflineInbox: Sendable {
    /// By conversation id, ascending seq.
    private(set) var conversations: [String: [ChatMessage]] = [:]
    /// The engine ids of every message kept (an id belongs to one conversation).
    private var kept: Set<String> = []

    /// Keeps an offline message (again after a reconnect's redelivery: once). The engine
    /// delivers a queue oldest first, so a message nearly always goes at the end; the array is
    /// changed in place, never copied or sorted again (10,000 offline messages of one
    /// conversation were quadratic: a copy, a scan and a sort per message).
    mutating func add(_ message: ChatMessage) {
        guard kept.insert(message.messageId).inserted else { return }
        let seq = OpenIMChatMessage.seq(of: message)
        let id = OpenIMChatMessage.conversationID(of: message)
        conversations[id, default: []].insertInSeqOrder(message, seq: seq)
    }

    /// The newest seq of each conversation with offline messages.
    var maxSeqs: [String: Int64] { conversations.compactMapValues { $0.last.map(OpenIMChatMessage.seq(of:)) } }

    /// The oldest seq of each conversation with offline messages.
    var minSeqs: [String: Int64] { conversations.compactMapValues { $0.first.map(OpenIMChatMessage.seq(of:)) } }

    /// The seq ranges one pull may ask for (docs/PROTOCOL-OPENIM.md, "Limits of one frame") when
    /// the inbox has no more conversations than this: openim-sdk-core from v3.2.1 on batches its
    /// ranges, one per conversation, until they stand for `SplitPullMsgNum` (100) messages, each
    /// range for at least one, so a batch never holds more than 100
    /// (`MsgSyncer.syncAndTriggerMsgs`).
    static let maximumSeqRanges = 100

    /// The messages one answer holds, its ranges together (a range's `num` counts within it):
    /// as many as the engine queues for an offline user by default (10,000), so one pull of
    /// every conversation — the reference client's — still drains a full queue.
    static let maximumMessagesPerPull = SessionEngineConfiguration().maximumOfflineMessagesPerUser

    /// The seq ranges a pull may ask for now: ``maximumSeqRanges``, or one per conversation with
    /// offline messages when there are more — an SDK before v3.2.1 (and imock's reference
    /// client) asks for every conversation 1001 listed in one pull.
    var seqRangeLimit: Int { max(Self.maximumSeqRanges, conversations.count) }

    /// The answer to a 1002 and the ids of the messages it returns, or why it is
    /// refused: more ranges than ``seqRangeLimit``, or a conversation in two ranges (an SDK
    /// builds its ranges from a map; of two answers for one conversation id it would keep one). At most ``maximumMessagesPerPull`` messages, taken range
    /// by range in the request's order: a range cut short, or left empty once the answer is
    /// full, says `isEnd` false.
    func answer(_ request: OpenIMPB.PullMessageBySeqsReq) throws(OpenIMError) -> (
        answer: OpenIMPB.PullMessageBySeqsResp, carried: [String]
    ) {
        let ranges = request.seqRanges
        guard ranges.count <= seqRangeLimit else {
            throw OpenIMError(.args, "seqRanges: \(ranges.count) ranges; one pull may ask for \(seqRangeLimit)")
        }
        var asked = Set<String>(minimumCapacity: ranges.count)
        for range in ranges {
            guard asked.insert(range.conversationID).inserted else {
                throw OpenIMError(.args, "seqRanges: conversation \(range.conversationID) is asked for more than once")
            }
        }
        var answer = OpenIMPB.PullMessageBySeqsResp()
        var carried: [String] = []
        var room = Self.maximumMessagesPerPull
        for range in ranges {
            let pulled = pull(range, descending: request.order == .desc, limit: room)
            room -= pulled.messages.count
            carried += pulled.messages.map(\.messageId)
            answer.msgs[range.conversationID] = OpenIMPB.PullMsgs(
                msgs: pulled.messages.map(OpenIMChatMessage.msgData), isEnd: pulled.isEnd,
                endSeq: pulled.messages.last.map(OpenIMChatMessage.seq(of:)) ?? 0)
        }
        return (answer, carried)
    }

    /// The messages of `range` (its seqs `begin…end`, none when `begin > end`; at most `num`
    /// when positive and at most `limit`, the oldest for ascending order, the newest for
    /// descending) and whether that was all of them. Found by binary search: O(log n +
    /// returned), whatever the seqs.
    func pull(
        _ range: OpenIMPB.SeqRange, descending: Bool, limit: Int = OpenIMOfflineInbox.maximumMessagesPerPull
    ) -> (messages: [ChatMessage], isEnd: Bool) {
        let conversation = conversations[range.conversationID] ?? []
        let found = Self.indices(in: conversation, from: range.begin, through: range.end, seq: OpenIMChatMessage.seq(of:))
        let wanted = range.num > 0 ? min(Int(clamping: range.num), limit) : limit
        let count = min(found.count, max(0, wanted))
        let chosen = descending ? Array(conversation[found.suffix(count)].reversed()) : Array(conversation[found.prefix(count)])
        return (chosen, count == found.count)
    }

    /// The indices of the elements of `elements` (sorted by `seq`) whose seq is in
    /// `begin…end`; none when `begin > end`. Two binary searches: O(log n) calls of `seq`, and
    /// no arithmetic on the seqs, so any Int64 is safe.
    static func indices<Elements: RandomAccessCollection>(
        in elements: Elements, from begin: Int64, through end: Int64, seq: (Elements.Element) -> Int64
    ) -> Range<Elements.Index> {
        guard begin <= end else { return elements.endIndex..<elements.endIndex }
        let lower = elements.partitioningIndex { seq($0) >= begin }
        return lower..<elements[lower...].partitioningIndex { seq($0) > end }
    }
}

extension Array where Element == ChatMessage {
    /// Inserts `message` after every element with a seq not above `seq` (stable for equal seqs).
    fileprivate mutating func insertInSeqOrder(_ message: ChatMessage, seq: Int64) {
        if let last, OpenIMChatMessage.seq(of: last) > seq {
            insert(message, at: partitioningIndex { OpenIMChatMessage.seq(of: $0) > seq })
        } else {
            append(message)
        }
    }
}
