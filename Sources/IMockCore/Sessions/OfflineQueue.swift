/// One user's undelivered messages, oldest first: every message the engine accepted for the
/// user and no device has confirmed yet (docs/PROTOCOL.md § Delivery). A message is either
/// *waiting* (no connection holds it: the next login's offline sync carries it) or *in flight*
/// to the connections that hold it (pushed live, not confirmed). A confirmation removes it; a
/// holder's close makes it waiting again, in place, so the order never changes and nothing is
/// queued twice.
///
/// Appending and removing — in order or not — cost the same whatever the length: a removal
/// leaves a hole that later compaction closes (acking a queue of 10,000 one by one was
/// quadratic as an array).
struct OfflineQueue: Sendable {
    /// One undelivered message and the connections it is in flight to (empty: waiting).
    struct Entry: Sendable {
        var message: ChatMessage
        var holders: [ConnectionID]
    }

    /// Entries from `head` on; nil is a removed one.
    private var slots: [Entry?] = []
    private var head = 0
    /// Where each message is in `slots`.
    private var positions: [String: Int] = [:]

    init() {}

    /// Waiting messages, oldest first.
    init(_ messages: some Sequence<ChatMessage>) {
        for message in messages { append(message) }
    }

    /// How many messages are undelivered, waiting or in flight (what the queue's cap counts).
    var count: Int { positions.count }

    var isEmpty: Bool { positions.isEmpty }

    /// The waiting messages, oldest first: what an offline sync delivers.
    var messages: [ChatMessage] { slots[head...].compactMap { $0.flatMap { $0.holders.isEmpty ? $0.message : nil } } }

    /// Every undelivered message, waiting or in flight, oldest first: what a store keeps.
    var allMessages: [ChatMessage] { slots[head...].compactMap { $0?.message } }

    /// Whether message `id` is undelivered.
    func contains(_ id: String) -> Bool { positions[id] != nil }

    /// The connections message `id` is in flight to (empty when waiting or unknown).
    func holders(of id: String) -> [ConnectionID] {
        positions[id].flatMap { slots[$0]?.holders } ?? []
    }

    /// Queues `message` last, in flight to `holders` (none: waiting).
    mutating func append(_ message: ChatMessage, heldBy holders: [ConnectionID] = []) {
        positions[message.messageId] = slots.count
        slots.append(Entry(message: message, holders: holders))
    }

    /// `connection` holds message `id` from now on (it was handed over to it); false when the
    /// message is not queued or the connection holds it already.
    mutating func hold(_ id: String, by connection: ConnectionID) -> Bool {
        guard let position = positions[id], slots[position]?.holders.contains(connection) == false else { return false }
        slots[position]?.holders.append(connection)
        return true
    }

    /// `connection` no longer holds message `id` (it closed without confirming it): once no
    /// connection holds it, it waits again where it was. Returns the message when it was held
    /// there.
    mutating func release(_ id: String, from connection: ConnectionID) -> ChatMessage? {
        guard let position = positions[id], let index = slots[position]?.holders.firstIndex(of: connection) else {
            return nil
        }
        slots[position]?.holders.remove(at: index)
        return slots[position]?.message
    }

    /// Removes message `id` (confirmed by a device); its entry, nil when it was not queued.
    mutating func remove(_ id: String) -> Entry? {
        guard let position = positions.removeValue(forKey: id) else { return nil }
        let entry = slots[position]
        slots[position] = nil
        while head < slots.count, slots[head] == nil { head += 1 }
        if positions.isEmpty {
            slots = []
            head = 0
        } else if slots.count - positions.count > max(64, positions.count) {
            compact()
        }
        return entry
    }

    private mutating func compact() {
        let live = slots[head...].compactMap { $0 }
        slots = live
        head = 0
        positions = [:]
        for (index, entry) in live.enumerated() { positions[entry.message.messageId] = index }
    }
}
