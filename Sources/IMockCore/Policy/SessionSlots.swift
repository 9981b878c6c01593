/// The slots of ``LiveSessions`` (a session, or nil for a hole): an array that holds a single
/// slot inline. Nearly every user has one live session, and an array of one cost 64 bytes of
/// heap per user (docs/BENCHMARKS.md, `fleet`). It is two words, as the array it replaces
/// was one and a session two: the single slot is a session, not a hole (a hole alone is held
/// in an array), so the case fits in the spare bits of the session's device reference.
struct SessionSlots: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Sendable {
    private enum Storage: Sendable {
        case one(LiveSession)
        /// Never exactly one session (but may be one hole).
        case many([LiveSession?])
    }

    private var storage = Storage.many([])

    init() {}

    init(_ sessions: [LiveSession]) {
        self.init(slots: sessions)
    }

    private init(slots: [LiveSession?]) {
        if slots.count == 1, let session = slots[0] { storage = .one(session) } else { storage = .many(slots) }
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
            var slots = takeArray()
            slots[position] = newValue
            self = SessionSlots(slots: slots)
        }
    }

    mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with slots: C) where C.Element == LiveSession? {
        var all = takeArray()
        all.replaceSubrange(range, with: slots)
        self = SessionSlots(slots: all)
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
