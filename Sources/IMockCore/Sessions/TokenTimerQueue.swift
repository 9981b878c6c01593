import IMockCommon

/// The engine's token timers: one entry per session whose token expires — its warning, then,
/// once that fired, its expiry — in a binary min-heap on (deadline, order).
///
/// `order` is given when a session's timers are scheduled (the warning `2g`, the expiry `2g+1`
/// of the session's generation `g`), so equal deadlines fire in scheduling order even though
/// the expiry enters the heap only when the warning fired. Nothing is removed on a cancel: the
/// engine tells stale entries by their generation when they come out, and counts them
/// (``noteStale()``) so that the heap is rebuilt from its live entries when they outnumber them.
/// Three words an entry and one entry a session (a queue with per-timer cancellation kept a
/// set of live ids and two entries a session: 106 bytes a session at 15,000 sessions).
struct TokenTimerQueue: Sendable {
    /// One pending timer.
    struct Entry: Sendable, Equatable, HeapOrdered {
        /// When it is due, on the engine's clock.
        let atMs: Int64
        /// Its place among equal deadlines, and what it is: even the warning, odd the expiry,
        /// `order >> 1` the generation of the session's timers.
        let order: UInt64
        /// Whose it is.
        let session: SessionID

        /// The generation of the session's timers it belongs to.
        var generation: UInt64 { order >> 1 }
        /// Whether it is the expiry (else the warning).
        var isExpiry: Bool { order & 1 == 1 }

        func comesBefore(_ other: Entry) -> Bool {
            atMs != other.atMs ? atMs < other.atMs : order < other.order
        }
    }

    private var heap = BinaryHeap<Entry>()
    /// Entries known to be stale (cancelled) and still in the heap.
    private var stale = 0
    /// The last generation handed out.
    private var lastGeneration: UInt64 = 0

    /// The entries that are not known to be stale: the sessions with a pending timer.
    var count: Int { heap.count - stale }

    /// The entries in the heap, stale ones included (at most about twice ``count``).
    var storedCount: Int { heap.count }

    /// The earliest deadline in the heap (perhaps a stale entry's: waking for it is harmless).
    var nextDeadline: Int64? { heap.first?.atMs }

    /// A new generation for a session's timers (never 0: 0 means none).
    mutating func nextGeneration() -> UInt64 {
        lastGeneration += 1
        return lastGeneration
    }

    /// Adds an entry.
    mutating func push(_ entry: Entry) { heap.push(entry) }

    /// Removes and returns the earliest entry due by `limit`; nil when none is.
    mutating func popFirst(dueBy limit: Int64) -> Entry? {
        guard let top = heap.first, top.atMs <= limit else { return nil }
        return heap.popFirst()
    }

    /// An entry still in the heap became stale (its session ended or renewed its token);
    /// rebuilds the heap from the entries `isLive` keeps when stale ones outnumber live ones.
    mutating func noteStale(isLive: (Entry) -> Bool) {
        stale += 1
        guard stale > heap.count / 2 + 32 else { return }
        heap.retain(where: isLive)
        stale = 0
    }

    /// A stale entry came out of the heap.
    mutating func poppedStale() {
        stale = max(0, stale - 1)
    }
}
