/// One user's undelivered messages, oldest first: every message the engine accepted for the
/// user and no device has confirmed yet (docs/PROTOCOL.md § Delivery). A message is either
/// *waiting* (no connection holds it: the next login's offline sync carries it) or *in flight*
/// to the connections that hold it (pushed live, not confirmed). A confirmation removes it; a
/// holder's close makes it waiting again, in place, so the order never changes and nothing is
/// queued twice.
///
/// A short queue (nearly every one: a message live to an online device is queued and confirmed
/// within moments) is a plain array searched by id, with no hashing and nothing allocated but
/// the array. Past ``indexThreshold`` messages the queue indexes them by id, and appending and
/// removing — in order or not — cost the same whatever the length: a removal leaves a hole
/// that later compaction closes (acking a queue of 10,000 one by one was quadratic as an array).
struct OfflineQueue: Sendable {
    /// One undelivered message and the connections it is in flight to (none: waiting).
    struct Entry: Sendable {
        var message: ChatMessage
        var holders: ConnectionList
    }

    /// Entries from `head` on; nil is a removed one (only while indexed).
    private var slots: [Entry?] = []
    private var head = 0
    /// Where each message is in `slots`; nil while the queue is short enough to scan.
    private var positions: [String: Int]?

    /// Past this many messages the queue indexes them; below half of it, it scans again.
    static var indexThreshold: Int { 32 }

    init() {}

    /// Waiting messages, oldest first.
    init(_ messages: some Sequence<ChatMessage>) {
        for message in messages { append(message) }
    }

    /// How many messages are undelivered, waiting or in flight (what the queue's cap counts).
    var count: Int { positions?.count ?? slots.count }

    var isEmpty: Bool { count == 0 }

    /// Whether the queue indexes its messages by id (for tests).
    var isIndexed: Bool { positions != nil }

    /// The waiting messages, oldest first: what an offline sync delivers.
    var messages: [ChatMessage] { slots[head...].compactMap { $0.flatMap { $0.holders.isEmpty ? $0.message : nil } } }

    /// Every undelivered message, waiting or in flight, oldest first: what a store keeps.
    var allMessages: [ChatMessage] { slots[head...].compactMap { $0?.message } }

    /// Whether message `id` is undelivered.
    func contains(_ id: String) -> Bool { position(of: id) != nil }

    /// The connections message `id` is in flight to (empty when waiting or unknown).
    func holders(of id: String) -> ConnectionList {
        position(of: id).flatMap { slots[$0]?.holders } ?? ConnectionList()
    }

    private func position(of id: String) -> Int? {
        guard let positions else { return slots.firstIndex { $0?.message.messageId == id } }
        return positions[id]
    }

    /// Queues `message` last, in flight to `holders` (none: waiting).
    mutating func append(_ message: ChatMessage, heldBy holders: ConnectionList = ConnectionList()) {
        positions?[message.messageId] = slots.count
        slots.append(Entry(message: message, holders: holders))
        if positions == nil, slots.count > Self.indexThreshold { compact(indexed: true) }
    }

    /// `connection` holds message `id` from now on (it was handed over to it); false when the
    /// message is not queued or the connection holds it already.
    mutating func hold(_ id: String, by connection: ConnectionID) -> Bool {
        guard let position = position(of: id), slots[position]?.holders.contains(connection) == false else { return false }
        slots[position]?.holders.append(connection)
        return true
    }

    /// `connection` no longer holds message `id` (it closed without confirming it): once no
    /// connection holds it, it waits again where it was. Returns the message when it was held
    /// there.
    mutating func release(_ id: String, from connection: ConnectionID) -> ChatMessage? {
        guard let position = position(of: id), slots[position]?.holders.remove(connection) == true else { return nil }
        return slots[position]?.message
    }

    /// Removes message `id` (confirmed by a device); its entry, nil when it was not queued.
    mutating func remove(_ id: String) -> Entry? {
        guard positions != nil else {
            guard let position = position(of: id) else { return nil }
            return slots.remove(at: position)
        }
        guard let position = positions?.removeValue(forKey: id) else { return nil }
        let entry = slots[position]
        slots[position] = nil
        while head < slots.count, slots[head] == nil { head += 1 }
        let count = count
        if count < Self.indexThreshold / 2 {
            compact(indexed: false)
        } else if slots.count - count > max(64, count) {
            compact(indexed: true)
        }
        return entry
    }

    /// Closes the holes; indexes the messages or drops the index.
    private mutating func compact(indexed: Bool) {
        let live = slots[head...].compactMap { $0 }
        slots = live
        head = 0
        guard indexed else {
            positions = nil
            return
        }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(live.count)
        for (index, entry) in live.enumerated() { positions[entry.message.messageId] = index }
        self.positions = positions
    }
}
