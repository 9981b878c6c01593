/// One user's offline messages, oldest first, kept until acked. Appending and acking — in
/// order or not — cost the same whatever the length: an ack leaves a hole that later
/// compaction closes (acking a queue of 10,000 one by one was quadratic as an array).
struct OfflineQueue: Sendable {
    /// Messages from `head` on; nil is an acked one.
    private var slots: [ChatMessage?] = []
    private var head = 0
    /// Where each waiting message is in `slots`.
    private var positions: [String: Int] = [:]

    init() {}

    /// The waiting messages, oldest first.
    init(_ messages: some Sequence<ChatMessage>) {
        for message in messages { append(message) }
    }

    /// How many messages wait.
    var count: Int { positions.count }

    var isEmpty: Bool { positions.isEmpty }

    /// The waiting messages, oldest first.
    var messages: [ChatMessage] { slots[head...].compactMap { $0 } }

    /// Whether message `id` waits.
    func contains(_ id: String) -> Bool { positions[id] != nil }

    /// Queues `message` last.
    mutating func append(_ message: ChatMessage) {
        positions[message.messageId] = slots.count
        slots.append(message)
    }

    /// Removes message `id`; false when it is not waiting.
    mutating func remove(_ id: String) -> Bool {
        guard let position = positions.removeValue(forKey: id) else { return false }
        slots[position] = nil
        while head < slots.count, slots[head] == nil { head += 1 }
        if positions.isEmpty {
            slots = []
            head = 0
        } else if slots.count - positions.count > max(64, positions.count) {
            self = OfflineQueue(messages)
        }
        return true
    }
}
