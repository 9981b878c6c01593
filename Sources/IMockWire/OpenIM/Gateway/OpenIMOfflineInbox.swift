import IMockCore

/// One gateway connection's offline messages: the engine delivers them all at login (offline
/// start, messages, finish), the connection keeps them by conversation and the SDK asks for
/// them (1001 newest seq, 1002 pull by seq range). A message is acked to the engine (removed
/// from the user's offline queue) the first time a pull returns it.
struct OpenIMOfflineInbox: Sendable {
    /// By conversation id, ascending seq.
    private(set) var conversations: [String: [ChatMessage]] = [:]
    /// Engine ids already acked.
    private var acked: Set<String> = []

    /// Keeps an offline message (again after a reconnect's redelivery: once).
    mutating func add(_ message: ChatMessage) {
        let id = OpenIMChatMessage.conversationID(of: message)
        var messages = conversations[id] ?? []
        guard !messages.contains(where: { $0.messageId == message.messageId }) else { return }
        messages.append(message)
        messages.sort { OpenIMChatMessage.seq(of: $0) < OpenIMChatMessage.seq(of: $1) }
        conversations[id] = messages
    }

    /// The newest seq of each conversation with offline messages.
    var maxSeqs: [String: Int64] { conversations.compactMapValues { $0.last.map(OpenIMChatMessage.seq(of:)) } }

    /// The oldest seq of each conversation with offline messages.
    var minSeqs: [String: Int64] { conversations.compactMapValues { $0.first.map(OpenIMChatMessage.seq(of:)) } }

    /// The messages of `range` (its seqs `begin…end`; at most `num` when positive, the oldest
    /// for ascending order, the newest for descending), whether that was all of them, and the
    /// ids to ack now (returned for the first time).
    mutating func pull(_ range: OpenIMPB.SeqRange, descending: Bool) -> (
        messages: [ChatMessage], isEnd: Bool, toAck: [String]
    ) {
        let matching = (conversations[range.conversationID] ?? []).filter {
            (range.begin...max(range.begin, range.end)).contains(OpenIMChatMessage.seq(of: $0))
        }
        let limit = range.num > 0 ? Int(clamping: range.num) : matching.count
        let chosen = descending ? Array(matching.suffix(limit).reversed()) : Array(matching.prefix(limit))
        let toAck = chosen.map(\.messageId).filter { acked.insert($0).inserted }
        return (chosen, chosen.count == matching.count, toAck)
    }
}
