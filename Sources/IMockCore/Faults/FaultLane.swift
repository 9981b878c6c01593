/// What faults hold back on one connection: items waiting for their release time (delay,
/// holdLogin) or for a black hole to end, in send order; and, while black-holed, the client
/// messages that were already read (handled when it ends). Times are nanoseconds of the hold
/// clock (``FaultMachine``).
public struct FaultLane<Item: Sendable, Inbound: Sendable>: Sendable {
    /// Items in send order with their release time.
    public private(set) var queue: [(item: Item, releaseNs: Int64)] = []
    /// The black hole that holds the connection, if any.
    public internal(set) var blackhole: FaultID?
    /// Client messages read while black-holed.
    public internal(set) var inbound: [Inbound] = []
    /// The delay and holdLogin faults that held items of this lane.
    public internal(set) var holders: Set<FaultID> = []
    /// When the shell was asked to wake the machine for this lane (nil: no wake-up armed).
    public internal(set) var wakeNs: Int64?

    /// An empty lane.
    public init() {}

    /// When the last queued item is released (a later item never overtakes it).
    var lastReleaseNs: Int64 { queue.last?.releaseNs ?? 0 }

    /// Nothing held and no black hole: the lane can go.
    public var isIdle: Bool { queue.isEmpty && blackhole == nil && inbound.isEmpty }

    /// Holds `item` until `holdMs` from `nowNs`, and never before the item held before it.
    public mutating func hold(_ item: Item, holdMs: Int64, nowNs: Int64) {
        queue.append((item, max(nowNs + holdMs * 1_000_000, lastReleaseNs)))
    }

    /// Makes every held item due at `nowNs` (the holds that delayed them ended).
    mutating func releaseAll(atNs nowNs: Int64) {
        queue = queue.map { ($0.item, min($0.releaseNs, nowNs)) }
        holders = []
    }

    /// The items due at `nowNs`, in send order (none while black-holed), taken out of the
    /// queue, and when the next one is due.
    public mutating func takeDue(nowNs: Int64) -> (due: [Item], nextNs: Int64?) {
        guard blackhole == nil else { return ([], nil) }
        let count = queue.prefix { $0.releaseNs <= nowNs }.count
        let due = queue.prefix(count).map(\.item)
        queue.removeFirst(count)
        return (due, queue.first?.releaseNs)
    }
}
