/// An unordered map that stays a plain array of pairs, searched by `==`, while it holds few
/// entries, and becomes a dictionary past ``threshold`` (back to pairs below half of it).
///
/// Most maps of the engine's hot paths hold one or two entries and live for a moment: a scan
/// of short keys costs a few comparisons where a dictionary hashes each key and allocates its
/// table, while a large map keeps O(1) lookups and removals.
public struct SmallMap<Key: Hashable, Value> {
    /// The entries while small (the dictionary is empty then).
    @usableFromInline var pairs: [(key: Key, value: Value)] = []
    /// The entries while large (`pairs` is empty then).
    @usableFromInline var table: [Key: Value] = [:]

    /// Past this many entries the map hashes its keys.
    public static var threshold: Int { 16 }

    /// An empty map.
    @inlinable public init() {}

    /// How many entries the map holds.
    @inlinable public var count: Int { table.isEmpty ? pairs.count : table.count }

    @inlinable public var isEmpty: Bool { pairs.isEmpty && table.isEmpty }

    /// Whether the map hashes its keys (for tests).
    public var isHashed: Bool { !table.isEmpty }

    /// Every key, in no particular order.
    @inlinable public var keys: [Key] { table.isEmpty ? pairs.map { $0.key } : Array(table.keys) }

    @inlinable func pairIndex(of key: Key) -> Int? { pairs.firstIndex { $0.key == key } }

    /// The value of `key`, nil when it has none.
    @inlinable public subscript(key: Key) -> Value? {
        if !table.isEmpty { return table[key] }
        return pairIndex(of: key).map { pairs[$0].value }
    }

    /// Whether `key` has a value.
    @inlinable public func contains(_ key: Key) -> Bool { self[key] != nil }

    /// Sets the value of `key`; returns the value it replaced, nil when it had none.
    @inlinable @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        if !table.isEmpty { return table.updateValue(value, forKey: key) }
        if let index = pairIndex(of: key) {
            defer { pairs[index].value = value }
            return pairs[index].value
        }
        pairs.append((key, value))
        if pairs.count > Self.threshold { hash() }
        return nil
    }

    /// Removes `key`; returns its value, nil when it had none.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        if !table.isEmpty {
            guard let value = table.removeValue(forKey: key) else { return nil }
            if table.count < Self.threshold / 2 { unhash() }
            return value
        }
        guard let index = pairIndex(of: key) else { return nil }
        pairs.swapAt(index, pairs.count - 1)
        return pairs.removeLast().value
    }

    @usableFromInline mutating func hash() {
        table = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        pairs = []
    }

    @usableFromInline mutating func unhash() {
        pairs = table.map { ($0.key, $0.value) }
        table = [:]
    }
}

extension SmallMap: Sendable where Key: Sendable, Value: Sendable {}
