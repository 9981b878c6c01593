/// Identifies a scheduled timer so that it can be cancelled.
public struct LoopTimerID: Sendable, Hashable {
    let value: UInt64
}

/// A min-heap of deadlines; ties fire in scheduling order. Cancelled timers are removed lazily.
struct TimerHeap<Payload> {
    private struct Entry {
        var deadline: MonotonicInstant
        var id: LoopTimerID
        var payload: Payload

        func firesBefore(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : id.value < other.id.value
        }
    }

    private var heap: [Entry] = []
    private var live: Set<LoopTimerID> = []
    private var nextID: UInt64 = 1

    var isEmpty: Bool { live.isEmpty }
    var count: Int { live.count }

    mutating func schedule(at deadline: MonotonicInstant, _ payload: Payload) -> LoopTimerID {
        let id = LoopTimerID(value: nextID)
        nextID += 1
        heap.append(Entry(deadline: deadline, id: id, payload: payload))
        live.insert(id)
        siftUp(heap.count - 1)
        return id
    }

    /// Cancels a timer; returns false when it already fired or was cancelled.
    @discardableResult
    mutating func cancel(_ id: LoopTimerID) -> Bool {
        live.remove(id) != nil
    }

    /// The earliest live deadline.
    mutating func nextDeadline() -> MonotonicInstant? {
        dropCancelledTop()
        return heap.first?.deadline
    }

    /// Removes and returns the timers due at `now`, earliest first.
    mutating func popDue(now: MonotonicInstant) -> [(LoopTimerID, Payload)] {
        var due: [(LoopTimerID, Payload)] = []
        while true {
            dropCancelledTop()
            guard let top = heap.first, top.deadline <= now else { break }
            removeTop()
            live.remove(top.id)
            due.append((top.id, top.payload))
        }
        return due
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, !live.contains(top.id) { removeTop() }
    }

    private mutating func removeTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].firesBefore(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].firesBefore(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].firesBefore(heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
