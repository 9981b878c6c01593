import IMockCore
import IMockNet

/// Fans the sent-journal out to the `/_imock/events` subscribers as Server-Sent Events: one
/// `event: journal` per entry, numbered by a per-process `id` that grows by one for every
/// journal entry (filtered streams see gaps). Loop-confined.
final class StreamBroadcaster {
    /// How often an idle stream gets a `: keep-alive` comment, on the loop's real-time timer.
    static let defaultKeepAliveInterval: Duration = .seconds(15)

    /// The keep-alive period of streams opened from now on (tests shorten it).
    var keepAliveInterval = StreamBroadcaster.defaultKeepAliveInterval
    /// The id of the last journal entry published (0 before the first).
    private(set) var lastEventID: UInt64 = 0
    private var subscribers: [UInt64: StreamSubscriber] = [:]

    /// Open streams.
    var subscriberCount: Int { subscribers.count }

    /// Sends `entry` to every subscriber whose filter accepts it.
    func publish(_ entry: JournalEntry) {
        lastEventID += 1
        guard !subscribers.isEmpty else { return }
        let event = Self.event(id: lastEventID, entry)
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
    static func event(id: UInt64, _ entry: JournalEntry) -> [UInt8] {
        Array("id: \(id)\nevent: journal\ndata: ".utf8) + InspectionControl.json(entry).encoded() + Array("\n\n".utf8)
    }

    /// The SSE comment sent to idle streams.
    static let keepAlive = Array(": keep-alive\n\n".utf8)
}
