import IMockCore

/// The control API's record of what the server sent (`GET /_imock/journal`): kicks, token
/// events, refusals and closes, in order — the last ``capacity``; when full, the older half
/// goes at once (one move, not one per entry).
struct HubJournal {
    static let capacity = 10_000
    private(set) var entries: [JournalEntry] = []

    mutating func append(_ entry: JournalEntry) {
        if entries.count >= Self.capacity { entries.removeFirst(entries.count / 2) }
        entries.append(entry)
    }
}
