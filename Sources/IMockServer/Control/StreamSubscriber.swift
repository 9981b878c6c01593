import IMockCore
import IMockNet

/// One `/_imock/events` client: registers with the broadcaster while its stream is open,
/// keeps only the entries of its app (when it asked for one), and sends a `: keep-alive`
/// comment when nothing else went out for the keep-alive interval. Loop-confined.
final class StreamSubscriber: HTTPStreamDelegate {
    /// The app filter (`?app=org%23app`); nil = every entry.
    let app: AppKey?
    private let broadcaster: StreamBroadcaster
    private let keepAliveInterval: Duration
    private var writer: HTTPStreamWriter?
    private var keepAliveTimer: LoopTimerID?
    /// Whether an event went out since the keep-alive timer was armed.
    private var sentSinceTick = false

    init(app: AppKey?, broadcaster: StreamBroadcaster) {
        self.app = app
        self.broadcaster = broadcaster
        self.keepAliveInterval = broadcaster.keepAliveInterval
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
        armKeepAlive(on: writer.loop)
    }

    func streamDidClose(_ writer: HTTPStreamWriter, reason: HTTPStreamEnd) {
        if let keepAliveTimer { writer.loop.cancelTimer(keepAliveTimer) }
        keepAliveTimer = nil
        broadcaster.remove(connection: writer.connectionID)
        self.writer = nil
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
