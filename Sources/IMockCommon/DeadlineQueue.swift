/// Identifies one timer in a ``DeadlineQueue``; ids grow in scheduling order.
public struct TimerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The sequence number of the timer within its schedule.
    public let rawValue: UInt64

    /// Wraps a raw id.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: TimerID, rhs: TimerID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "timer#\(rawValue)" }
}

/// A pure timer queue: payloads that become due at a deadline of any ordered type (epoch
/// milliseconds of the domain's clock, or monotonic instants of the event loop).
///
/// Due timers come out in deadline order, and timers with equal deadlines in the order they
/// were scheduled. The owner decides what "now" is. Cancelled timers are dropped lazily.
///
/// Inlinable, so that each user (the event loop, the timeline) gets a copy specialised for its
/// deadline and payload types: the generic version looked up type metadata at every step.
public struct DeadlineQueue<Deadline: Comparable & Sendable, Payload>: @unchecked Sendable {
    // @unchecked: Sendable exactly when Payload is; the event loop keeps non-Sendable closures
    // in a loop-confined queue.
    @usableFromInline
    struct Entry: HeapOrdered {
        @usableFromInline var deadline: Deadline
        @usableFromInline var id: TimerID
        @usableFromInline var payload: Payload

        @inlinable
        init(deadline: Deadline, id: TimerID, payload: Payload) {
            self.deadline = deadline
            self.id = id
            self.payload = payload
        }

        @inlinable
        func comesBefore(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id < other.id
        }
    }

    /// A binary min-heap on (deadline, id). Cancelled entries stay until they reach the top.
    @usableFromInline var heap = BinaryHeap<Entry>()
    @usableFromInline var live: Set<TimerID> = []
    @usableFromInline var nextID: UInt64 = 0

    /// Creates an empty schedule.
    @inlinable
    public init() {}

    /// The number of timers scheduled and not yet fired or cancelled.
    @inlinable
    public var count: Int { live.count }

    /// Whether no timer is pending.
    @inlinable
    public var isEmpty: Bool { live.isEmpty }

    /// The earliest pending deadline, or nil when nothing is scheduled.
    @inlinable
    public var nextDeadline: Deadline? { heap.first?.deadline }

    /// Schedules `payload` to become due at `deadline`.
    @inlinable
    @discardableResult
    public mutating func schedule(at deadline: Deadline, _ payload: Payload) -> TimerID {
        let id = TimerID(rawValue: nextID)
        nextID += 1
        live.insert(id)
        heap.push(Entry(deadline: deadline, id: id, payload: payload))
        return id
    }

    /// Cancels a pending timer; returns false if it already fired, was cancelled, or never existed.
    @inlinable
    @discardableResult
    public mutating func cancel(_ id: TimerID) -> Bool {
        guard live.remove(id) != nil else { return false }
        dropCancelledTop()
        if heap.count > 2 * live.count + 64 { dropCancelled() }
        return true
    }

    /// The entries in the heap, cancelled ones included (kept at most about twice the live
    /// ones: a session's token timers, cancelled when it ends, would otherwise stay until
    /// their deadline a week later).
    @inlinable
    public var storedCount: Int { heap.count }

    /// Rebuilds the heap from its live entries (linear; run when cancelled ones outnumber
    /// them, so a cancel costs constant time on average).
    @inlinable
    mutating func dropCancelled() {
        heap.retain { live.contains($0.id) }
    }

    /// The pending timers, in no particular order (linear).
    @inlinable
    public var entries: [(deadline: Deadline, payload: Payload)] {
        heap.elements.filter { live.contains($0.id) }.map { ($0.deadline, $0.payload) }
    }

    /// Whether `id` is still pending.
    @inlinable
    public func isPending(_ id: TimerID) -> Bool { live.contains(id) }

    /// Removes and returns every timer with a deadline ≤ `now`, in firing order.
    @inlinable
    public mutating func popDue(now: Deadline) -> [(id: TimerID, payload: Payload)] {
        var due: [(id: TimerID, payload: Payload)] = []
        while let top = heap.first, top.deadline <= now {
            heap.popFirst()
            live.remove(top.id)
            due.append((id: top.id, payload: top.payload))
            dropCancelledTop()
        }
        return due
    }

    /// Removes and returns the first timer due by `limit`, with its deadline; nil when none is.
    @inlinable
    public mutating func popFirst(dueBy limit: Deadline) -> (id: TimerID, deadline: Deadline, payload: Payload)? {
        guard let top = heap.first, top.deadline <= limit else { return nil }
        heap.popFirst()
        live.remove(top.id)
        dropCancelledTop()
        return (top.id, top.deadline, top.payload)
    }

    @inlinable
    mutating func dropCancelledTop() {
        while let top = heap.first, !live.contains(top.id) { heap.popFirst() }
    }
}
