import IMockCore
import IMockNet

/// One `/_imock/events` client: registers with the broadcaster while its stream is open,
/// keeps only the entries of its app (when it asked for one), and sends a `: keep-alive`
/// comment when nothing else went out for the keep-alive interval. A client that came back
/// with `Last-Event-ID` first gets the journal's entries after it. Loop-confined.
final class StreamSubscriber: HTTPStreamDelegate {
    /// The app filter (`?app=org%23app`); nil = every entry.
    let app: AppKey?
    private let broadcaster: StreamBroadcaster
    private let keepAliveInterval: Duration
    private var writer: HTTPStreamWriter?
    private var keepAliveTimer: LoopTimerID?
    /// Whether an event went out since the keep-alive timer was armed.
    private var sentSinceTick = false
    /// The journal's entries to send before the live ones, with their numbers, read when the
    /// stream opens (on the loop, in the turn it subscribes: nothing falls between the two).
    private let replay: (() -> [(sequence: Int64, entry: JournalEntry)])?

    init(app: AppKey?, broadcaster: StreamBroadcaster, replay: (() -> [(sequence: Int64, entry: JournalEntry)])? = nil) {
        self.app = app
        self.broadcaster = broadcaster
        self.keepAliveInterval = broadcaster.keepAliveInterval
        self.replay = replay
    }

    func accepts(_ entry: JournalEntry) -> Bool {
        app == nil || entry.app == app
    }

    func send(_ event: [UInt8]) {
        sentSinceTick = true
        writer?.write(event)
    }

    func streamDidOpen(_ writer: HTTPStreamWriter) {
        self.writer = writer
        broadcaster.add(self, connection: writer.connectionID)
        // A first comment tells the client the subscription is live before any event.
        writer.write(": subscribed\n\n")
        for event in Self.replayEvents(replay?() ?? [], budget: writer.maxPendingBytes / 2) where writer.isOpen {
            send(event)
        }
        armKeepAlive(on: writer.loop)
    }

    func streamDidClose(_ writer: HTTPStreamWriter, reason: HTTPStreamEnd) {
        if let keepAliveTimer { writer.loop.cancelTimer(keepAliveTimer) }
        keepAliveTimer = nil
        broadcaster.remove(connection: writer.connectionID)
        self.writer = nil
    }

    /// The events of `entries`, oldest first: the newest that fit in `budget` bytes, so that a
    /// replay never makes the client a slow consumer at once. The ids tell the client where a
    /// gap was left (the rest is in `GET /_imock/journal?afterSeq=`).
    static func replayEvents(_ entries: [(sequence: Int64, entry: JournalEntry)], budget: Int) -> [[UInt8]] {
        var events: [[UInt8]] = []
        var bytes = 0
        for (sequence, entry) in entries.reversed() {
            let event = StreamBroadcaster.event(id: sequence, entry)
            bytes += event.count
            if bytes > budget { break }
            events.append(event)
        }
        return events.reversed()
    }

    private func armKeepAlive(on loop: EventLoop) {
        sentSinceTick = false
        keepAliveTimer = loop.scheduleTimer(after: keepAliveInterval) { [weak self] in
            guard let self, let writer = self.writer else { return }
            self.keepAliveTimer = nil
            if !self.sentSinceTick, !writer.write(StreamBroadcaster.keepAlive) { return }
            if writer.isOpen { self.armKeepAlive(on: loop) }
        }
    }
}
