import IMockCore

/// The messages an msync connection holds for its device, one queue per peer, until the device
/// pulls them (`CommSyncUL{queue}`) and confirms a page (`CommSyncUL{queue, key: nextKey}`).
///
/// A page with messages always says `isLast: false` with `nextKey` = the id of its last
/// message, so the Web SDK confirms it with that key; the answer to the confirmation is the
/// next page, and a queue with nothing left answers `metas: []`, `isLast: true`. Only a
/// confirmed page leaves the inbox, and its messages are acked to the engine then (which keeps
/// every message until a device confirms it), so they are delivered exactly once across
/// reconnects; what the inbox still holds when the connection closes waits in the engine.
struct MsyncInbox: Sendable, Equatable {
    /// One held message.
    struct Item: Sendable, Equatable {
        var message: ChatMessage
        /// The id on the wire (`Meta.id`, the page keys): the engine's numeric message id.
        var id: UInt64
    }

    /// A page sent and not confirmed yet: the first `count` items of its queue.
    struct Flight: Sendable, Equatable {
        var key: UInt64
        var count: Int
    }

    /// What a pull answers.
    struct Page: Sendable, Equatable {
        /// The messages of the page (empty: the queue is drained).
        var messages: [ChatMessage]
        /// The key confirming it; nil with an empty page.
        var nextKey: UInt64?
        /// The messages the pull confirmed: ack them to the engine.
        var confirmed: [ChatMessage]
    }

    /// One peer's held messages: `items[head...]`. Confirmed pages move `head` instead of
    /// shifting the array (a drain of 10,000 in pages of 20 shifted it 500 times); the
    /// confirmed part is dropped once it is the larger half.
    struct Queue: Sendable, Equatable {
        var items: [Item] = []
        var head = 0
        /// The page sent and not confirmed yet (kept with its queue: one lookup finds both).
        var flight: Flight?

        var count: Int { items.count - head }
        /// How many wait outside the page in flight.
        var waiting: Int { count - (flight?.count ?? 0) }
        var held: ArraySlice<Item> { items[head...] }

        mutating func removeFirst(_ count: Int) {
            head += count
            if head >= items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
        }
    }

    /// Most messages one page carries.
    let pageSize: Int
    /// Queues by peer username.
    private(set) var queues: [String: Queue] = [:]
    /// Peers in the order their queue last became non-empty.
    private(set) var peers: [String] = []
    /// Ids for messages whose engine id is not a number (never, with the engine's ids).
    private var fallbackID: UInt64 = 1 << 62

    init(pageSize: Int) {
        self.pageSize = max(1, pageSize)
    }

    /// Holds `message` in its sender's queue. Returns true when that queue had nothing waiting
    /// outside a page in flight (a NOTICE is due).
    mutating func add(_ message: ChatMessage) -> Bool {
        let peer = message.from
        let id = UInt64(message.messageId) ?? nextFallbackID()
        let item = Item(message: message, id: id)
        guard let index = queues.index(forKey: peer) else {
            peers.append(peer)
            queues[peer] = Queue(items: [item])
            return true
        }
        let waitingBefore = queues.values[index].waiting
        queues.values[index].items.append(item)
        return waitingBefore == 0
    }

    /// How many messages of `peer` wait outside a page in flight.
    func waiting(_ peer: String) -> Int {
        queues[peer]?.waiting ?? 0
    }

    /// The queues with messages waiting (outside pages in flight) and how many, in order.
    var unread: [(peer: String, count: Int)] {
        peers.compactMap { peer in
            let count = waiting(peer)
            return count > 0 ? (peer, count) : nil
        }
    }

    /// Every held message, queue by queue.
    var allMessages: [ChatMessage] { peers.flatMap { queues[$0]?.held.map(\.message) ?? [] } }

    /// A pull of `peer`'s queue, confirming the page in flight when `key` is its key. A pull
    /// that does not confirm the page in flight gets that page again.
    mutating func pull(_ peer: String, key: UInt64?) -> Page {
        guard let index = queues.index(forKey: peer) else { return Page(messages: [], nextKey: nil, confirmed: []) }
        var confirmed: [ChatMessage] = []
        if let flight = queues.values[index].flight, let key, key == flight.key {
            confirmed = queues.values[index].held.prefix(flight.count).map(\.message)
            queues.values[index].removeFirst(confirmed.count)
            queues.values[index].flight = nil
            if queues.values[index].count == 0 {
                queues.remove(at: index)
                peers.removeAll { $0 == peer }
                return Page(messages: [], nextKey: nil, confirmed: confirmed)
            }
        }
        let queue = queues.values[index]
        let items = queue.held.prefix(queue.flight?.count ?? pageSize)
        guard let last = items.last else { return Page(messages: [], nextKey: nil, confirmed: confirmed) }
        queues.values[index].flight = Flight(key: last.id, count: items.count)
        return Page(messages: items.map(\.message), nextKey: last.id, confirmed: confirmed)
    }

    private mutating func nextFallbackID() -> UInt64 {
        fallbackID += 1
        return fallbackID
    }
}
