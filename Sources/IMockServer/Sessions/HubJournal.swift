import IMockCore

/// The control API's record of what the server sent (`GET /_imock/journal`): kicks, token
/// events, refusals and closes, in order — the last ``capacity``; when full, the older half
/// goes at once (one move, not one per entry).
///
/// Every entry is numbered in the order it was appended, 1, 2, 3 … for the life of the server
/// (its `seq`, and its `id` on `GET /_imock/events`): a reader that keeps the last number it
/// read asks for what came after it (`afterSeq`), which stays right when the older half goes.
///
/// Entries are kept compact (``Stored``), half the size of a ``JournalEntry``: a fleet of
/// 15,000 logins fills the journal, and each entry cost ~160 bytes (docs/BENCHMARKS.md, `fleet`).
struct HubJournal {
    static let capacity = 10_000
    private var stored: [Stored] = []
    /// The number of `stored[0]` (of the next entry while empty).
    private var firstSequence: Int64 = 1
    /// The dialect names entries carry, each once (a handful); an entry holds its index.
    private var dialects: [String] = []

    /// The entries, oldest first, as they were appended.
    var entries: [JournalEntry] { stored.map { $0.entry(dialects: dialects) } }

    /// The number the next entry appended gets.
    var nextSequence: Int64 { firstSequence + Int64(stored.count) }

    /// The entries numbered after `afterSequence`, at or after `sinceMs`, of `app` (each
    /// condition left out when nil), oldest first with their numbers: only those are built.
    /// The server clock can be set back, so the times are not assumed to be in order.
    func entries(afterSequence: Int64?, sinceMs: Int64?, app: AppKey?) -> [(sequence: Int64, entry: JournalEntry)] {
        let start = afterSequence.map { Int(clamping: max(0, $0 + 1 - firstSequence)) } ?? 0
        var found: [(sequence: Int64, entry: JournalEntry)] = []
        for index in stored.indices.dropFirst(start) {
            let kept = stored[index]
            if let sinceMs, kept.atMs < sinceMs { continue }
            if let app, kept.app != app { continue }
            found.append((firstSequence + Int64(index), kept.entry(dialects: dialects)))
        }
        return found
    }

    /// Appends `entry`; returns its number.
    @discardableResult
    mutating func append(_ entry: JournalEntry) -> Int64 {
        if stored.count >= Self.capacity {
            let dropped = stored.count / 2
            stored.removeFirst(dropped)
            firstSequence += Int64(dropped)
        }
        stored.append(Stored(entry, dialect: dialectIndex(entry.dialect)))
        return nextSequence - 1
    }

    /// `name`'s index in ``dialects`` plus one, 0 for none.
    private mutating func dialectIndex(_ name: String?) -> UInt8 {
        guard let name else { return 0 }
        if let index = dialects.firstIndex(of: name) { return UInt8(index + 1) }
        guard dialects.count < Int(UInt8.max) else { return 0 }
        dialects.append(name)
        return UInt8(dialects.count)
    }

    /// One entry as the journal keeps it. A login's acceptance (nearly every entry) is held as
    /// its tag and token expiry: its resource is the entry's and its server time the entry's
    /// time. Any other event is held behind one reference.
    private struct Stored {
        let atMs: Int64
        let connection: ConnectionID
        let app: AppKey?
        let user: String?
        let resource: String?
        let event: Event
        let dialect: UInt8

        enum Event {
            case loginAccepted(RequestTag, tokenExpiresAt: Int64?)
            case other(Boxed)
        }

        final class Boxed {
            let event: JournalEvent

            init(_ event: JournalEvent) { self.event = event }
        }

        init(_ entry: JournalEntry, dialect: UInt8) {
            atMs = entry.atMs
            connection = entry.connection
            app = entry.app
            user = entry.user
            resource = entry.resource
            self.dialect = dialect
            if case .loginAccepted(let tag, let resource, let expiresAt, let serverTime) = entry.event,
                resource == entry.resource, serverTime == entry.atMs
            {
                event = .loginAccepted(tag, tokenExpiresAt: expiresAt)
            } else {
                event = .other(Boxed(entry.event))
            }
        }

        func entry(dialects: [String]) -> JournalEntry {
            let journalEvent: JournalEvent
            switch event {
            case .loginAccepted(let tag, let expiresAt):
                journalEvent = .loginAccepted(tag, resource: resource ?? "", tokenExpiresAt: expiresAt, serverTime: atMs)
            case .other(let boxed):
                journalEvent = boxed.event
            }
            return JournalEntry(
                atMs: atMs, connection: connection, app: app, user: user, resource: resource, event: journalEvent,
                dialect: dialect == 0 ? nil : dialects[Int(dialect) - 1])
        }
    }
}
