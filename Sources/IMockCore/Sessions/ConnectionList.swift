/// The connections a queued message is in flight to, in the order they took it (or a user's
/// live connections): nearly always none or one (a user's one live device), kept inline so that
/// queuing a message allocates no array for it.
struct ConnectionList: Sendable, Equatable, Sequence {
    /// The first connection; nil only when the list is empty.
    private var first: ConnectionID?
    /// The connections after the first.
    private var others: [ConnectionID] = []

    /// No connection.
    init() {}

    /// `connections`, in order.
    init(_ connections: some Sequence<ConnectionID>) {
        for connection in connections { append(connection) }
    }

    var isEmpty: Bool { first == nil }

    var count: Int { first == nil ? 0 : 1 + others.count }

    func contains(_ connection: ConnectionID) -> Bool { first == connection || others.contains(connection) }

    /// Adds `connection` last.
    mutating func append(_ connection: ConnectionID) {
        if first == nil { first = connection } else { others.append(connection) }
    }

    /// Removes `connection`; false when it was not there.
    mutating func remove(_ connection: ConnectionID) -> Bool {
        if first == connection {
            first = others.isEmpty ? nil : others.removeFirst()
            return true
        }
        guard let index = others.firstIndex(of: connection) else { return false }
        others.remove(at: index)
        return true
    }

    func makeIterator() -> Iterator { Iterator(list: self) }

    /// The connections in order.
    struct Iterator: IteratorProtocol {
        let list: ConnectionList
        var position = 0

        mutating func next() -> ConnectionID? {
            defer { position += 1 }
            return position == 0 ? list.first : position <= list.others.count ? list.others[position - 1] : nil
        }
    }
}
