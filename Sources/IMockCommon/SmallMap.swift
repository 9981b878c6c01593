/// An unordered map that stays an inline pair and an array of others, searched by `==`, while
/// it holds few entries, and becomes a dictionary past ``threshold`` (back below half of it).
///
/// Most maps of the engine's hot paths hold one or two entries and live for a moment: a scan
/// of short keys costs a few comparisons where a dictionary hashes each key and allocates its
/// table (and a map of one allocates nothing), while a large map keeps O(1) lookups and removals.
public struct SmallMap<Key: Hashable, Value> {
    /// The first entry while small: a map of one (most of them) allocates nothing.
    @usableFromInline var first: (key: Key, value: Value)?
    /// The other entries while small (the dictionary is empty then).
    @usableFromInline var rest: [(key: Key, value: Value)] = []
    /// The entries while large (`first` is nil and `rest` empty then).
    @usableFromInline var table: [Key: Value] = [:]

    /// Past this many entries the map hashes its keys.
    public static var threshold: Int { 16 }

    /// An empty map.
    @inlinable public init() {}

    /// How many entries the map holds.
    @inlinable public var count: Int {
        guard table.isEmpty else { return table.count }
        return first == nil ? 0 : 1 + rest.count
    }

    @inlinable public var isEmpty: Bool { first == nil && table.isEmpty }

    /// Whether the map hashes its keys (for tests).
    public var isHashed: Bool { !table.isEmpty }

    /// Every key, in no particular order.
    @inlinable public var keys: [Key] {
        guard table.isEmpty else { return Array(table.keys) }
        guard let first else { return [] }
        return [first.key] + rest.map { $0.key }
    }

    @inlinable func restIndex(of key: Key) -> Int? { rest.firstIndex { $0.key == key } }

    /// The value of `key`, nil when it has none.
    @inlinable public subscript(key: Key) -> Value? {
        guard table.isEmpty else { return table[key] }
        if let first, first.key == key { return first.value }
        return restIndex(of: key).map { rest[$0].value }
    }

    /// Whether `key` has a value.
    @inlinable public func contains(_ key: Key) -> Bool { self[key] != nil }

    /// Sets the value of `key`; returns the value it replaced, nil when it had none.
    @inlinable @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        guard table.isEmpty else { return table.updateValue(value, forKey: key) }
        guard let old = first else {
            first = (key, value)
            return nil
        }
        if old.key == key {
            first = (key, value)
            return old.value
        }
        if let index = restIndex(of: key) {
            defer { rest[index].value = value }
            return rest[index].value
        }
        rest.append((key, value))
        if rest.count >= Self.threshold { hash() }
        return nil
    }

    /// Removes `key`; returns its value, nil when it had none.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard table.isEmpty else {
            guard let value = table.removeValue(forKey: key) else { return nil }
            if table.count < Self.threshold / 2 { unhash() }
            return value
        }
        if let old = first, old.key == key {
            first = rest.popLast()
            return old.value
        }
        guard let index = restIndex(of: key) else { return nil }
        rest.swapAt(index, rest.count - 1)
        return rest.removeLast().value
    }

    @usableFromInline mutating func hash() {
        var table = Dictionary(rest, uniquingKeysWith: { kept, _ in kept })
        if let first { table[first.key] = first.value }
        self.table = table
        first = nil
        rest = []
    }

    @usableFromInline mutating func unhash() {
        rest = table.map { ($0.key, $0.value) }
        first = rest.popLast()
        table = [:]
    }
}

extension SmallMap: Sendable where Key: Sendable, Value: Sendable {}
