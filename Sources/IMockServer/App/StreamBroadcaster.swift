import IMockCore
import IMockNet

/// Fans the sent-journal out to the `/_imock/events` subscribers as Server-Sent Events: one
/// `event: journal` per entry, whose `id` is the entry's number in the journal (its `seq`,
/// growing by one for every entry: filtered streams see gaps). Loop-confined.
final class StreamBroadcaster {
    /// How often an idle stream gets a `: keep-alive` comment, on the loop's real-time timer.
    static let defaultKeepAliveInterval: Duration = .seconds(15)

    /// The keep-alive period of streams opened from now on (tests shorten it).
    var keepAliveInterval = StreamBroadcaster.defaultKeepAliveInterval
    /// The number of the last journal entry published (0 before the first).
    private(set) var lastEventID: Int64 = 0
    private var subscribers: [UInt64: StreamSubscriber] = [:]

    /// Open streams.
    var subscriberCount: Int { subscribers.count }

    /// Sends `entry`, numbered `sequence` in the journal, to every subscriber whose filter
    /// accepts it.
    func publish(_ entry: JournalEntry, sequence: Int64) {
        lastEventID = sequence
        guard !subscribers.isEmpty else { return }
        let event = Self.event(id: sequence, entry)
        // A write may drop a slow subscriber, which removes it from `subscribers`; the loop
        // runs over a copy.
        for subscriber in subscribers.values where subscriber.accepts(entry) {
            subscriber.send(event)
        }
    }

    func add(_ subscriber: StreamSubscriber, connection: UInt64) {
        subscribers[connection] = subscriber
    }

    func remove(connection: UInt64) {
        subscribers[connection] = nil
    }

    /// One SSE event: `id`, `event: journal` and the entry as one line of JSON (the shape of
    /// `GET /_imock/journal`'s entries; compact JSON never holds a raw line break).
    static func event(id: Int64, _ entry: JournalEntry) -> [UInt8] {
        Array("id: \(id)\nevent: journal\ndata: ".utf8) + InspectionControl.json(entry, sequence: id).encoded()
            + Array("\n\n".utf8)
    }

    /// The SSE comment sent to idle streams.
    static let keepAlive = Array(": keep-alive\n\n".utf8)
}
