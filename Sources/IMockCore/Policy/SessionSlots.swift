/// The slots of ``LiveSessions`` (a session, or nil for a hole): an array that holds a single
/// slot inline. Nearly every user has one live session, and an array of one cost 64 bytes of
/// heap per user (docs/BENCHMARKS.md, `fleet`).
struct SessionSlots: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Sendable {
    private enum Storage: Sendable {
        case one(LiveSession?)
        /// Never exactly one element.
        case many([LiveSession?])
    }

    private var storage = Storage.many([])

    init() {}

    init(_ sessions: [LiveSession]) {
        storage = sessions.count == 1 ? .one(sessions[0]) : .many(sessions)
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .one: 1
        case .many(let slots): slots.count
        }
    }

    subscript(position: Int) -> LiveSession? {
        get {
            switch storage {
            case .one(let slot):
                precondition(position == 0, "slot \(position) of 1")
                return slot
            case .many(let slots):
                return slots[position]
            }
        }
        set {
            if case .one = storage {
                precondition(position == 0, "slot \(position) of 1")
                storage = .one(newValue)
            } else {
                var slots = takeArray()
                slots[position] = newValue
                storage = .many(slots)
            }
        }
    }

    mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with slots: C) where C.Element == LiveSession? {
        var all = takeArray()
        all.replaceSubrange(range, with: slots)
        storage = all.count == 1 ? .one(all[0]) : .many(all)
    }

    /// The slots as an array, left uniquely referenced (the storage is emptied): changed in
    /// place, not copied.
    private mutating func takeArray() -> [LiveSession?] {
        switch storage {
        case .one(let slot):
            storage = .many([])
            return [slot]
        case .many(let slots):
            storage = .many([])
            return slots
        }
    }
}
