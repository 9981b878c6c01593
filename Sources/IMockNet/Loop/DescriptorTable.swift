/// Values by file descriptor, in an array indexed by the descriptor: the kernel hands out the
/// lowest free descriptor, so the array is about as long as the most descriptors open at once.
/// Smaller and cheaper than a dictionary, whose slot per descriptor cost 61 bytes a connection
/// at 15,000 connections (a table at a low load factor after its last doubling).
struct DescriptorTable<Value> {
    private var slots: [Value?] = []

    /// The value of `fd`; setting nil removes it.
    subscript(fd: Int32) -> Value? {
        get { fd >= 0 && Int(fd) < slots.count ? slots[Int(fd)] : nil }
        set {
            guard fd >= 0 else { return }
            let index = Int(fd)
            if index >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count))
            }
            slots[index] = newValue
        }
    }

    /// Removes the value of `fd`, returning it.
    @discardableResult
    mutating func removeValue(forKey fd: Int32) -> Value? {
        let value = self[fd]
        if value != nil { self[fd] = nil }
        return value
    }

    /// Every descriptor with a value, lowest first.
    var all: [(fd: Int32, value: Value)] {
        slots.indices.compactMap { index in slots[index].map { (Int32(index), $0) } }
    }
}
