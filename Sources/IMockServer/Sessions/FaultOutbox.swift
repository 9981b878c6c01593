import IMockCore
import IMockNet
import IMockWire

/// What a fault holds back on one connection: frames and a close waiting for their release
/// time (delay, holdLogin) or for a black hole to end, in send order; and, while black-holed,
/// the client frames that were already read (handled when it ends).
struct FaultOutbox {
    /// A held item.
    enum Item {
        /// A message of the connection's dialect, already encoded; `chat` is the id of the chat
        /// message it pushes, if it pushes one, and `carried` those of the pulled messages an
        /// answer carries (the transport ledger notes where it ends).
        case message(WireMessage, chat: String? = nil, carried: [String] = [])
        case close(WebSocketCloseCode, reason: String)
    }

    /// Items in send order with their release time (monotonic nanoseconds, real time).
    var queue: [(item: Item, releaseNs: Int64)] = []
    /// The loop timer armed for the first item.
    var timer: LoopTimerID?
    /// The black hole that holds the connection, if any.
    var blackhole: FaultID?
    /// Client messages read while black-holed.
    var inbound: [WireMessage] = []

    /// When the last queued item is released (a later item never overtakes it).
    var lastReleaseNs: Int64 { queue.last?.releaseNs ?? 0 }

    /// Nothing held and no black hole: the outbox can go.
    var isIdle: Bool { queue.isEmpty && blackhole == nil && inbound.isEmpty }

    /// Holds `item` until `holdMs` from `nowNs`, and never before the item held before it.
    mutating func hold(_ item: Item, holdMs: Int64, nowNs: Int64) {
        queue.append((item, max(nowNs + holdMs * 1_000_000, lastReleaseNs)))
    }

    /// The items due at `nowNs`, in send order (none while black-holed), taken out of the
    /// queue, and when the next one is due.
    mutating func takeDue(nowNs: Int64) -> (due: [Item], nextNs: Int64?) {
        guard blackhole == nil else { return ([], nil) }
        let count = queue.prefix { $0.releaseNs <= nowNs }.count
        let due = queue.prefix(count).map(\.item)
        queue.removeFirst(count)
        return (due, queue.first?.releaseNs)
    }
}
