import IMockCore
import IMockNet

/// The imperative shell around the pure `SessionEngine`: feeds it frames, socket closes, timer
/// firings and REST changes, and carries out the effects it returns (send a frame, close a
/// WebSocket with a code, schedule or cancel a timer, journal). Also closes `/ws` connections
/// that stay silent longer than the idle timeout. Loop-confined.
final class SessionHub {
    private let loop: EventLoop
    private let clock: any Clock
    private let logger: Logger
    private let idleTimeout: Duration
    private(set) var engine: SessionEngine
    private var channels: [ConnectionID: ChannelState] = [:]
    private var timers = DomainTimers()
    private var armed: (deadlineMs: Int64, timer: LoopTimerID)?
    /// Everything sent that the control API reports: kicks, token events, closes.
    private(set) var journal: [JournalEntry] = []
    static let journalCapacity = 10_000

    private struct ChannelState {
        let channel: WebSocketChannel
        var lastActivity: MonotonicInstant
        var idleTimer: LoopTimerID?
    }

    init(loop: EventLoop, clock: any Clock, engine: SessionEngine, idleTimeout: Duration, logger: Logger) {
        self.loop = loop
        self.clock = clock
        self.engine = engine
        self.idleTimeout = idleTimeout
        self.logger = logger
    }

    /// Open `/ws` connections.
    var connectionCount: Int { channels.count }

    /// Who is online, for the REST `status` and `resources` routes.
    var presence: EnginePresence { EnginePresence(engine: engine) }

    // MARK: Socket events

    func opened(_ channel: WebSocketChannel, peer: SocketAddress?) {
        let id = ConnectionID(channel.id)
        channels[id] = ChannelState(channel: channel, lastActivity: .now(), idleTimer: nil)
        armIdleTimer(id)
        perform(engine.connectionOpened(id, nowMs: clock.nowMs))
        logger.debug("ws.open", ["conn": String(channel.id), "peer": peer?.description ?? "-"])
    }

    func received(_ text: String, on channel: WebSocketChannel, directory: inout Directory) {
        let id = ConnectionID(channel.id)
        channels[id]?.lastActivity = .now()
        perform(engine.frameReceived(id, text: text, nowMs: clock.nowMs, directory: &directory))
    }

    func closed(_ channel: WebSocketChannel, code: WebSocketCloseCode) {
        let id = ConnectionID(channel.id)
        guard let state = channels.removeValue(forKey: id) else { return }
        if let timer = state.idleTimer { loop.cancelTimer(timer) }
        perform(engine.connectionClosed(id, nowMs: clock.nowMs))
        logger.debug("ws.close", ["conn": String(channel.id), "code": String(code.rawValue)])
    }

    // MARK: Domain events

    /// Applies what a REST call changed to live sessions (kicks 217, 207, 216, 305).
    func apply(_ effect: RESTEffect) {
        let now = clock.nowMs
        let effects: [SessionEffect]
        switch effect {
        case .disconnectUser(let app, let user, let resource):
            effects = engine.disconnect(app: app, user: user, resource: resource, nowMs: now)
        case .userDeleted(let app, let user):
            effects = engine.userDeleted(app: app, user: user, nowMs: now)
        case .passwordChanged(let app, let user):
            effects = engine.passwordChanged(app: app, user: user, nowMs: now)
        case .userDeactivated(let app, let user):
            effects = engine.userDeactivated(app: app, user: user, nowMs: now)
        }
        perform(effects)
    }

    /// Fires the domain timers that are due on the clock.
    func fireDueTimers(directory: inout Directory) {
        for token in timers.popDue(nowMs: clock.nowMs) {
            perform(engine.timerFired(token, nowMs: clock.nowMs, directory: &directory))
        }
    }

    // MARK: Effects

    /// Carries out effects in order.
    private func perform(_ effects: [SessionEffect]) {
        var timersChanged = false
        for effect in effects {
            switch effect {
            case .send(let id, let frame):
                channels[id]?.channel.send(text: frame.text)
            case .close(let id, let code, let reason):
                channels[id]?.channel.close(code: WebSocketCloseCode(code), reason: reason)
            case .schedule(let token, let atMs):
                timers.add(token, atMs: atMs)
                timersChanged = true
            case .cancel(let token):
                timers.cancel(token)
                timersChanged = true
            case .journal(let entry):
                record(entry)
            }
        }
        if timersChanged { onTimersChanged?() }
    }

    /// Called when the earliest domain deadline may have moved (the server re-arms its timer).
    var onTimersChanged: (() -> Void)?

    /// The earliest pending domain deadline.
    var nextDeadlineMs: Int64? { timers.nextDeadline }

    private func record(_ entry: JournalEntry) {
        if journal.count >= SessionHub.journalCapacity { journal.removeFirst(journal.count / 2) }
        journal.append(entry)
        if case .closed(let code, _) = entry.event, code >= 4000 {
            logger.info(
                "session.closed", ["conn": String(entry.connection.rawValue), "app": entry.app?.description ?? "-",
                                   "user": entry.user ?? "-", "code": String(code)])
        }
    }

    // MARK: Idle timeout

    private func armIdleTimer(_ id: ConnectionID, after delay: Duration? = nil) {
        let timer = loop.scheduleTimer(after: delay ?? idleTimeout) { [weak self] in
            self?.checkIdle(id)
        }
        channels[id]?.idleTimer = timer
    }

    /// Re-arms for the remaining time instead of resetting a timer on every frame.
    private func checkIdle(_ id: ConnectionID) {
        guard let state = channels[id] else { return }
        let silentFor = MonotonicInstant.now().nanoseconds - state.lastActivity.nanoseconds
        let remaining = idleTimeout.nanoseconds - silentFor
        if remaining > 0 {
            armIdleTimer(id, after: .nanoseconds(remaining))
            return
        }
        channels[id]?.idleTimer = nil
        state.channel.close(code: .goingAway, reason: "idle for longer than \(idleTimeout)")
    }
}
