import IMockCore
import IMockNet

/// The imperative shell around the pure `SessionEngine`: feeds it frames, socket closes, timer
/// firings and REST changes, and carries out the effects it returns (send a frame, close a
/// WebSocket with a code, schedule or cancel a timer, journal). Also closes `/ws` connections
/// that stay silent longer than the idle timeout. Loop-confined.
final class SessionHub {
    let loop: EventLoop
    let clock: any Clock
    private let logger: Logger
    private let idleTimeout: Duration
    /// Most output a connection may have waiting (`--max-ws-output-bytes`).
    private let outputLimit: Int
    private(set) var engine: SessionEngine
    private(set) var channels: [ConnectionID: ChannelState] = [:]
    var timers = DomainTimers()
    /// Active control-API faults (FaultHub.swift carries them out).
    var faults = FaultBook()
    /// Connections whose server frames are held (delay, holdLogin) or black-holed.
    var faultOutboxes: [ConnectionID: FaultOutbox] = [:]
    /// The app, user and resource last known of a connection (from its login frame or its
    /// session), so faults still match the frames sent after a session ended (a kick).
    var faultSubjects: [ConnectionID: FaultSubject] = [:]
    /// Messages sent to a connection since its output was last fully written: what goes back
    /// to the offline queue if it is closed for not reading.
    private var unflushed: [ConnectionID: [ChatMessage]] = [:]
    /// Connections the engine closed (its close is journalled already).
    private var closedByEngine: Set<ConnectionID> = []
    /// Everything sent that the control API reports: kicks, token events, closes.
    private(set) var journal: [JournalEntry] = []
    static let journalCapacity = 10_000

    struct ChannelState {
        let channel: WebSocketChannel
        /// When a frame last arrived, on the server clock.
        var lastActivityMs: Int64
    }

    init(
        loop: EventLoop, clock: any Clock, engine: SessionEngine, idleTimeout: Duration, outputLimit: Int,
        logger: Logger
    ) {
        self.loop = loop
        self.clock = clock
        self.engine = engine
        self.idleTimeout = idleTimeout
        self.outputLimit = outputLimit
        self.logger = logger
    }

    /// Open `/ws` connections.
    var connectionCount: Int { channels.count }

    /// Who is online, for the REST `status` and `resources` routes.
    var presence: EnginePresence { EnginePresence(engine: engine) }

    // MARK: Socket events

    func opened(_ channel: WebSocketChannel, peer: SocketAddress?) {
        let id = ConnectionID(channel.id)
        channels[id] = ChannelState(channel: channel, lastActivityMs: clock.nowMs)
        timers.add(.idle(id), atMs: clock.nowMs + idleTimeout.milliseconds)
        onTimersChanged?()
        perform(engine.connectionOpened(id, nowMs: clock.nowMs))
        logger.debug("ws.open", ["conn": String(channel.id), "peer": peer?.description ?? "-"])
    }

    func received(_ text: String, on channel: WebSocketChannel, directory: inout Directory) {
        let id = ConnectionID(channel.id)
        channels[id]?.lastActivityMs = clock.nowMs
        if faultOutboxes[id]?.blackhole != nil {
            faultOutboxes[id]?.inbound.append(text)  // read once the black hole ends
            return
        }
        // failUnbind / failSync roll per request and hold only while the engine handles it.
        let engineFaults = faults.isEmpty ? nil : engineFaults(for: text, on: id)
        if let engineFaults { engine.setFaults(engineFaults.faults, for: engineFaults.app) }
        perform(engine.frameReceived(id, text: text, nowMs: clock.nowMs, directory: &directory))
        if let engineFaults { engine.setFaults(AppFaults(), for: engineFaults.app) }
    }

    func closed(_ channel: WebSocketChannel, code: WebSocketCloseCode) {
        let id = ConnectionID(channel.id)
        guard channels.removeValue(forKey: id) != nil else { return }
        if closedByEngine.remove(id) == nil, let sent = channel.initiatedClose {
            // A close the transport or the hub sent (idle 1001, 1009, 1002 …): journalled here,
            // since the engine did not decide it.
            let subject = faultSubject(of: id)
            record(
                JournalEntry(
                    atMs: clock.nowMs, connection: id, app: subject.app, user: subject.user, resource: subject.resource,
                    event: .closed(code: sent.code.rawValue, reason: sent.reason)))
        }
        unflushed[id] = nil
        timers.cancel(.idle(id))
        forgetFaultState(of: id)
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

    /// Fires the timers that are due on the clock (after it flowed, or was advanced or set).
    func fireDueTimers(directory: inout Directory) {
        for timer in timers.popDue(nowMs: clock.nowMs) {
            switch timer {
            case .engine(let token):
                perform(engine.timerFired(token, nowMs: clock.nowMs, directory: &directory))
            case .idle(let id):
                checkIdle(id)
            case .faultExpiry(let id):
                clearFault(id, directory: &directory)
            }
        }
        onTimersChanged?()
    }

    /// Runs any engine command (a control-API kick, an app switch) and carries out its effects.
    func run(_ command: (inout SessionEngine) -> [SessionEffect]) {
        perform(command(&engine))
    }

    // MARK: Effects

    /// Carries out effects in order. Frames and closes pass through the active faults (the
    /// send path of FaultHub.swift).
    func perform(_ effects: [SessionEffect]) {
        var timersChanged = false
        for effect in effects {
            switch effect {
            case .send(let id, let frame):
                if case .message(let message) = frame { noteUnflushed(message, on: id) }
                deliver(.text(frame.text), as: FaultOutgoing(frame), to: id)
                checkOutputLimit(id)
            case .close(let id, let code, let reason):
                closedByEngine.insert(id)
                deliver(.close(WebSocketCloseCode(code), reason: reason), as: .close, to: id)
            case .schedule(let token, let atMs):
                timers.add(.engine(token), atMs: atMs)
                timersChanged = true
            case .cancel(let token):
                timers.cancel(.engine(token))
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

    /// Called with every journal entry as it is recorded (the event stream and metrics listen).
    var onJournal: ((JournalEntry) -> Void)?

    private func record(_ entry: JournalEntry) {
        onJournal?(entry)
        if journal.count >= SessionHub.journalCapacity { journal.removeFirst(journal.count / 2) }
        journal.append(entry)
        if case .closed(let code, _) = entry.event, code >= 4000 {
            logger.info(
                "session.closed", ["conn": String(entry.connection.rawValue), "app": entry.app?.description ?? "-",
                                   "user": entry.user ?? "-", "code": String(code)])
        }
    }

    // MARK: Output limit

    /// Remembers a message sent to `id` until its output is fully written (a send that finds the
    /// output empty forgets the earlier ones: the socket took them).
    private func noteUnflushed(_ message: ChatMessage, on id: ConnectionID) {
        guard let channel = channels[id]?.channel else { return }
        if channel.connection.pendingOutputBytes == 0, faultOutboxes[id] == nil { unflushed[id] = nil }
        unflushed[id, default: []].append(message)
    }

    /// Closes a connection whose client does not read once its waiting output passes the limit;
    /// its unwritten messages go back to the offline queue (the engine's `outputOverflowed`).
    private func checkOutputLimit(_ id: ConnectionID) {
        guard let channel = channels[id]?.channel, channel.isOpen,
            channel.connection.pendingOutputBytes > outputLimit
        else { return }
        let undelivered = unflushed.removeValue(forKey: id) ?? []
        logger.info(
            "session.overflow",
            ["conn": String(id.rawValue), "pendingBytes": String(channel.connection.pendingOutputBytes),
             "requeued": String(undelivered.count)])
        perform(engine.outputOverflowed(id, undelivered: undelivered, nowMs: clock.nowMs))
    }

    // MARK: Idle timeout

    /// Counts a jump of the clock as activity on every connection: a client cannot ping during
    /// an instant jump, and an hour's jump must reach the token events, not drop every
    /// connection for silence. Idle timeouts still follow the clock while it flows.
    func clockJumped() {
        let now = clock.nowMs
        for id in channels.keys { channels[id]?.lastActivityMs = now }
    }

    /// Closes a connection silent for the idle timeout; otherwise checks again when it would be.
    /// (The deadline moves lazily instead of on every frame.)
    private func checkIdle(_ id: ConnectionID) {
        guard let state = channels[id] else { return }
        let deadline = state.lastActivityMs + idleTimeout.milliseconds
        if deadline > clock.nowMs {
            timers.add(.idle(id), atMs: deadline)
            return
        }
        state.channel.close(code: .goingAway, reason: "idle for longer than \(idleTimeout)")
    }
}
