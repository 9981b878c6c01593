/// An element a ``BinaryHeap`` orders.
public protocol HeapOrdered {
    /// Whether `self` comes out before `other` (a strict weak order).
    func comesBefore(_ other: Self) -> Bool
}

/// A binary min-heap: the element that ``HeapOrdered/comesBefore(_:)`` every other comes out
/// first. The storage of the timer queues (``DeadlineQueue``, the session engine's token timers).
///
/// Inlinable, so that each user gets a copy specialised for its element type.
public struct BinaryHeap<Element: HeapOrdered> {
    @usableFromInline var elements: [Element] = []

    /// An empty heap.
    @inlinable
    public init() {}

    /// The number of elements.
    @inlinable
    public var count: Int { elements.count }

    /// Whether it holds nothing.
    @inlinable
    public var isEmpty: Bool { elements.isEmpty }

    /// The element that comes out next.
    @inlinable
    public var first: Element? { elements.first }

    /// Adds `element`.
    @inlinable
    public mutating func push(_ element: Element) {
        elements.append(element)
        siftUp(elements.count - 1)
    }

    /// Removes and returns the first element; nil when empty.
    @inlinable
    @discardableResult
    public mutating func popFirst() -> Element? {
        guard let top = elements.first else { return nil }
        let last = elements.removeLast()
        if !elements.isEmpty {
            elements[0] = last
            siftDown(0)
        }
        return top
    }

    /// Keeps only the elements `keep` accepts (linear: the heap is rebuilt from them).
    @inlinable
    public mutating func retain(where keep: (Element) throws -> Bool) rethrows {
        try elements.removeAll { try !keep($0) }
        var parent = elements.count / 2 - 1
        while parent >= 0 {
            siftDown(parent)
            parent -= 1
        }
    }

    @inlinable
    mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].comesBefore(elements[parent]) else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    @inlinable
    mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < elements.count, elements[left].comesBefore(elements[first]) { first = left }
            if right < elements.count, elements[right].comesBefore(elements[first]) { first = right }
            guard first != parent else { return }
            elements.swapAt(parent, first)
            parent = first
        }
    }
}

extension BinaryHeap: Sendable where Element: Sendable {}
