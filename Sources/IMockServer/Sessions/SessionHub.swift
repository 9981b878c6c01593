import IMockCommon
import IMockCore
import IMockNet
import IMockWire

/// A session logged in during the HTTP upgrade, waiting for its connection to open.
struct UpgradeSession {
    /// The connection id reserved for it.
    let id: ConnectionID
    /// The outputs of its login, carried out once the connection is open.
    let outputs: [SessionOutput]
}

/// The imperative shell around the pure `SessionEngine`: each connection's dialect decodes its
/// messages into commands, the engine answers with outputs, the dialect encodes them
/// (`WireStep`), and the hub carries the steps out through the active faults (send, close,
/// schedule or cancel a timer, journal). Also closes connections that stay silent longer than
/// the idle timeout. Loop-confined.
final class SessionHub {
    let loop: EventLoop
    /// The run's clock and timers (shared with in-process clients).
    let clock: Timeline
    private let logger: Logger
    private let idleTimeout: Duration
    /// Most output a connection may have waiting (`--max-ws-output-bytes`).
    let outputLimit: Int
    /// Outputs waiting for their connection's socket to drain (SessionHub+Pacing.swift).
    var backlogs: [ConnectionID: [SessionOutput]] = [:]
    /// The server's domain (shared with the REST and control handlers).
    let domain: LoopBound<Domain>
    private(set) var channels: [ConnectionID: ChannelState] = [:]
    /// The last connection id handed out.
    private var nextConnection: UInt64 = 0
    var timers = HubTimers()
    /// What the active faults hold back (delay, holdLogin, black holes) and decide (FaultHub.swift).
    var faultMachine = HubFaultMachine()
    /// The loop timers of the fault machine's wake-ups, when holds run on real time.
    var faultWakes: [ConnectionID: LoopTimerID] = [:]
    /// Whether holds run on the server clock (it started frozen: `--clock virtual`) rather than
    /// real time.
    let holdsOnServerClock: Bool
    /// The app, user and resource last known of a connection that has no session (from its
    /// login frame, or from its session once that ended), so faults still match the frames
    /// sent after a session ended (a kick).
    var faultSubjects: [ConnectionID: FaultSubject] = [:]
    /// Where a clock jump under way ends: the frames it fires leave when the clock stands
    /// there, so the server time they carry on the wire is that (msync's token warning), though
    /// the engine fires each timer with the clock at its deadline.
    private var jumpTargetMs: Int64?
    /// Connections with written messages their peer's TCP has not acknowledged yet (checked
    /// by the delivery sweep).
    var awaitingAcknowledgement: Set<ConnectionID> = []
    /// Whether the delivery sweep's loop timer is armed.
    var deliverySweepArmed = false
    /// Connections the engine closed (its close is journalled already).
    private var closedByEngine: Set<ConnectionID> = []
    /// When the idle sweep is on the timeline, if it is.
    private var idleSweepAtMs: Int64?
    /// The server's clock and the monotonic clock at the last idle sweep (or the start): a
    /// step of the clock beyond the real time between two sweeps is not silence.
    private var idleReference: (clockMs: Int64, monotonicNs: Int64)
    /// Everything sent that the control API reports: kicks, token events, closes.
    private var journalLog = HubJournal()
    /// Record mode's recordings (Record/SessionHub+Record.swift).
    var recorder = SessionRecorder()
    var journal: [JournalEntry] { journalLog.entries }
    /// The number the journal's next entry gets.
    var journalNextSequence: Int64 { journalLog.nextSequence }
    /// The journal's entries after `afterSequence`, at or after `sinceMs`, of `app`, with their
    /// numbers (``HubJournal/entries(afterSequence:sinceMs:app:)``).
    func journal(afterSequence: Int64?, sinceMs: Int64?, app: AppKey?) -> [(sequence: Int64, entry: JournalEntry)] {
        journalLog.entries(afterSequence: afterSequence, sinceMs: sinceMs, app: app)
    }

    /// An open connection's state, behind one reference: its ~64 bytes inline made every slot
    /// of `channels` that large, and the table has 32,768 slots for 15,000 connections.
    final class ChannelState {
        let channel: any HubChannel
        /// The connection's wire protocol and its per-connection state (changed in place).
        /// Ask it through ``withDialect(_:)``, not by reading this.
        var dialect: any WireDialect
        /// When a message last arrived, on the server clock.
        var lastActivityMs: Int64
        /// The chat messages written and not yet acknowledged by the peer's TCP, for a dialect
        /// whose device confirms by transport; made at the first one written (nil until then,
        /// and for a dialect that confirms by its protocol).
        var ledger: TransportLedger?

        init(channel: any HubChannel, dialect: any WireDialect, lastActivityMs: Int64) {
            self.channel = channel
            self.dialect = dialect
            self.lastActivityMs = lastActivityMs
        }

        /// `question`'s answer about the dialect, asked through an exclusive (`inout`) access.
        /// A property or method of the existential read from the stored property copies the
        /// whole dialect first (the witness might reach this object and change it), and a
        /// frame asks two or three such questions.
        func withDialect<Answer>(_ question: (inout any WireDialect) -> Answer) -> Answer {
            question(&dialect)
        }
    }

    init(
        loop: EventLoop, clock: Timeline, domain: LoopBound<Domain>, idleTimeout: Duration, outputLimit: Int,
        logger: Logger
    ) {
        self.loop = loop
        self.clock = clock
        self.domain = domain
        self.idleTimeout = idleTimeout
        self.outputLimit = outputLimit
        self.logger = logger
        holdsOnServerClock = clock.isFrozen
        idleReference = (clock.nowMs, MonotonicInstant.now().nanoseconds)
    }

    /// Open `/ws` connections.
    var connectionCount: Int { channels.count }

    /// Who is online, for the REST `status` and `resources` routes and OpenIM's online status.
    var presence: EnginePresence { EnginePresence(engine: domain.value.engine, background: background) }
    /// Connections whose dialect says the app is in the background.
    private var background: Set<ConnectionID> = []

    /// Notes the connection's background flag after its dialect read something.
    private func noteBackground(of id: ConnectionID) {
        guard let state = channels[id] else { return }
        noteBackground(state, of: id)
    }

    private func noteBackground(_ state: ChannelState, of id: ConnectionID) {
        if state.withDialect({ $0.isInBackground }) {
            background.insert(id)
        } else if !background.isEmpty {
            background.remove(id)
        }
    }

    // MARK: Socket events

    /// The next connection id.
    func reserveConnection() -> ConnectionID {
        nextConnection += 1
        return ConnectionID(nextConnection)
    }

    /// A login made during the HTTP upgrade (the dialect read it from the request): accepted,
    /// what it does to other connections (a policy's kicks) is carried out now, before the
    /// upgrade's answer, as a login frame's would be before its reply; the outputs for the new
    /// connection come back with the session to open with the upgrade. Refused, the journal
    /// keeps the refusal and the dialect's HTTP answer goes back instead of the upgrade.
    func loginDuringUpgrade(_ command: SessionCommand, dialect: any WireDialect) -> Result<UpgradeSession, UpgradeRefusal> {
        let id = reserveConnection()
        let now = clock.nowMs
        var outputs = domain.value.connectionOpened(id, nowMs: now)
        if case .login(_, let request) = command { noteLoginSubject(request, on: id) }
        recordCommand(command, on: id, dialect: dialect.name)
        outputs += domain.value.handle(command, on: id, remembered: faultSubjects[id], nowMs: now)
        for output in outputs {
            guard case .end(id, let end) = output else { continue }
            for case .journal(let entry) in outputs { record(entry, dialect: dialect.name) }
            perform(domain.value.connectionClosed(id, nowMs: now))
            forgetFaultState(of: id)
            return .failure(dialect.refusal(forUpgrade: end))
        }
        let (own, others) = outputs.reduce(into: ([SessionOutput](), [SessionOutput]())) { split, output in
            if Self.connection(of: output) == id { split.0.append(output) } else { split.1.append(output) }
        }
        perform(others)
        return .success(UpgradeSession(id: id, outputs: own))
    }

    /// The connection an output is sent to or about (nil for timers).
    private static func connection(of output: SessionOutput) -> ConnectionID? {
        switch output {
        case .reply(let id, _, _), .push(let id, _), .end(let id, _): id
        case .journal(let entry): entry.connection
        case .wake: nil
        }
    }

    /// Registers a new connection; returns its id, numbered per server in opening order (so a
    /// run's ids repeat from run to run, whatever else the process does). A connection whose
    /// dialect logged it in during the upgrade comes with its `upgrade`: the id reserved then
    /// and the outputs of that login, carried out now.
    func opened(
        _ channel: any HubChannel, dialect: any WireDialect, peer: SocketAddress?, upgrade: UpgradeSession? = nil
    ) -> ConnectionID {
        let id = upgrade?.id ?? reserveConnection()
        channels[id] = ChannelState(channel: channel, dialect: dialect, lastActivityMs: clock.nowMs)
        noteBackground(of: id)
        for message in dialect.greeting { deliver(.message(message), as: .frame, to: id) }
        let idleDeadline = clock.nowMs + idleTimeout(of: id).milliseconds
        if idleSweepAtMs.map({ $0 > idleDeadline }) ?? true { scheduleIdleSweep(atMs: idleDeadline) }
        if let upgrade {
            perform(upgrade.outputs)
        } else {
            let byTransport = dialect.deliveryConfirmation == .transport
            perform(domain.value.connectionOpened(id, confirmsByTransport: byTransport, nowMs: clock.nowMs))
        }
        if logger.logs(.debug) { logger.debug("ws.open", ["conn": String(id.rawValue), "peer": peer?.description ?? "-"]) }
        return id
    }

    func received(_ message: WireMessage, on id: ConnectionID) {
        // The connection's state is looked up once: each lookup hashes the id and each change
        // through the table is an exclusive access of it, several per frame.
        guard let state = channels[id] else { return }
        let channel = state.channel
        let nowMs = clock.nowMs
        state.lastActivityMs = nowMs
        if state.ledger?.isEmpty == false { confirmDelivery(state, on: id) }
        if faultMachine.holds(message, on: id) { return }  // read once the black hole ends
        if limitsUpstream(message, on: id) { return }
        state.dialect.observe(serverTimeMs: nowMs)
        let inputs = state.dialect.decode(message)
        noteBackground(state, of: id)
        for input in inputs {
            switch input {
            case .command(let command):
                if case .login(_, let request) = command { noteLoginSubject(request, on: id) }
                recordCommand(command, on: id, dialect: nil)
                perform(domain.value.handle(command, on: id, remembered: faultSubjects[id], nowMs: clock.nowMs))
            case .reply(let reply):
                deliver(.message(reply), as: .frame, to: id)
            case .replyCarrying(let reply, let messageIds):
                domain.value.handedOver(id, messageIDs: messageIds)
                deliver(.message(reply, carried: messageIds), as: .syncPage, to: id)
            case .close(let close):
                channel.close(code: WebSocketCloseCode(close.code), reason: close.reason)
            }
        }
    }

    /// Something other than a message (a ping) arrived: the connection is not idle.
    func noteActivity(on id: ConnectionID) {
        channels[id]?.lastActivityMs = clock.nowMs
    }

    func closed(_ id: ConnectionID, code: WebSocketCloseCode) {
        guard let state = channels.removeValue(forKey: id) else { return }
        let channel = state.channel
        if closedByEngine.remove(id) == nil, let sent = channel.initiatedClose {
            // A close the transport or the hub sent (idle 1001, 1009, 1002 …): journalled here,
            // since the engine did not decide it.
            let subject = faultSubject(of: id)
            record(
                JournalEntry(
                    atMs: clock.nowMs, connection: id, app: subject.app, user: subject.user, resource: subject.resource,
                    event: .closed(code: sent.code.rawValue, reason: sent.reason)),
                dialect: state.withDialect { $0.name })
        }
        background.remove(id)
        dropBacklog(of: id)
        forgetFaultState(of: id)
        perform(domain.value.connectionClosed(id, keepingInFlight: true, nowMs: clock.nowMs))
        settleDelivery(state, of: id)
        recorder.closed(id, nowMs: clock.nowMs)
        if logger.logs(.debug) { logger.debug("ws.close", ["conn": String(id.rawValue), "code": String(code.rawValue)]) }
    }

    // MARK: Domain events

    /// This hub as timeline actions capture it.
    lazy var bound = LoopBound(WeakReference(self), on: loop)

    /// Puts `timer` on the timeline; it fires on this hub's loop.
    func schedule(_ timer: HubTimer, atMs: Int64) {
        let hub = bound
        let loop = self.loop
        timers.add(timer, atMs: atMs, on: clock) {
            if loop.inEventLoop {
                hub.value.object?.fire(timer, atMs: atMs)
            } else {
                loop.execute { hub.value.object?.fire(timer, atMs: atMs) }
            }
        }
    }

    /// A hub timer is due (its deadline: the time the clock stands at, or passed).
    private func fire(_ timer: HubTimer, atMs deadline: Int64) {
        timers.fired(timer)
        switch timer {
        case .engineTimers:
            perform(domain.value.fireDueTimers(nowMs: max(deadline, clock.nowMs)))
        case .idleSweep:
            idleSweepAtMs = nil
            sweepIdleConnections()
        case .faultExpiry(let id):
            clearFault(id)
        case .faultRelease(let id):
            wakeFaults(id)
        }
    }

    // MARK: Effects

    /// Carries out the engine's outputs in order, each encoded by its connection's dialect.
    /// Messages and closes pass through the active faults (the send path of FaultHub.swift).
    func perform(_ outputs: [SessionOutput]) {
        var endsSinceRelease = 0
        for output in outputs {
            if case .end = output {
                endsSinceRelease += 1
                if endsSinceRelease == Self.endsPerRelease {
                    endsSinceRelease = 0
                    releaseWrittenOutput()
                }
            }
            // Timers and journal entries need no dialect: carried out directly, without a
            // steps array each (an app-wide kick has four such outputs per session).
            switch output {
            case .wake(let atMs):
                schedule(.engineTimers, atMs: atMs)
                continue
            case .journal(let entry):
                record(entry)
                continue
            case .reply(let id, _, _), .push(let id, _), .end(let id, _):
                if waitsForDrain(output, on: id) { continue }
            }
            recordOutput(output)
            rememberFaultSubject(for: output)
            for step in steps(for: output) {
                switch step {
                case .send(let id, let message, let kind, let chat):
                    deliver(.message(message, chat: chat?.messageId), as: kind, to: id)
                case .close(let id, let close):
                    closedByEngine.insert(id)
                    let item = OutgoingItem.close(WebSocketCloseCode(close.code), reason: close.reason)
                    let announcement = close.announcement
                    guard close.lingerMs > 0 else {
                        if let announcement { deliver(.message(announcement), as: .close, to: id) }
                        deliver(item, as: .close, to: id)
                        continue
                    }
                    let hub = bound
                    _ = loop.scheduleTimer(after: .milliseconds(Int64(close.lingerMs))) {
                        if let announcement { hub.value.object?.deliver(.message(announcement), as: .close, to: id) }
                        hub.value.object?.deliver(item, as: .close, to: id)
                    }
                case .journal(let entry):
                    record(entry)
                }
            }
            if case .push(let id, .message) = output { checkOutputLimit(id) }
        }
    }

    /// Sessions ended between two writes of what they were told, in one batch of outputs (an
    /// app-wide kick ends thousands at once).
    static let endsPerRelease = 64

    /// Writes what the connections were sent so far without waiting for the end of the loop
    /// turn, unless the loop holds output for a commit (`--data`): the goodbyes of a mass
    /// kick leave while the rest are still being decided, and the devices start reading them
    /// on the other core instead of all waiting for the last session's decision.
    private func releaseWrittenOutput() {
        guard !loop.holdsOutputUntilTurnEnd else { return }
        loop.releaseHeldOutput()
    }

    /// The wire steps of a reply, push or end, encoded by its connection's dialect (which keeps
    /// its state); none once the connection is gone.
    private func steps(for output: SessionOutput) -> [WireStep] {
        guard let connection = Self.connection(of: output), let state = channels[connection] else { return [] }
        // The dialect is changed in place, in the connection's state: held twice, its state (an
        // msync inbox of 10,000 offline messages) was copied whole at every message.
        return WireStep.steps(for: output, dialect: &state.dialect, nowMs: wireNowMs)
    }

    /// Called with every journal entry and its number as it is recorded (the event stream and
    /// metrics listen).
    var onJournal: ((JournalEntry, Int64) -> Void)?

    /// The dialect name of an open connection (`imock`, `msync`, `openim` …), from its dialect
    /// (a table of names per connection cost a slot each).
    func dialectName(of id: ConnectionID) -> String? { channels[id]?.withDialect { $0.name } }

    /// Journals `entry`, naming the dialect of its connection (`dialect`, when the connection
    /// is no longer open).
    private func record(_ entry: JournalEntry, dialect: String? = nil) {
        var entry = entry
        entry.dialect = entry.dialect ?? dialect ?? dialectName(of: entry.connection)
        let sequence = journalLog.append(entry)
        onJournal?(entry, sequence)
        recordJournal(entry)
        if case .closed(let code, _) = entry.event, code >= 4000, logger.logs(.info) {
            logger.info(
                "session.closed", ["conn": String(entry.connection.rawValue), "app": entry.app?.description ?? "-",
                                   "user": entry.user ?? "-", "code": String(code)])
        }
    }

    // MARK: Output limit

    /// Closes a connection whose client does not read once what it holds passes the limit:
    /// the output its socket has not taken plus the messages in flight to it that it has not
    /// confirmed (msync's not pulled yet, OpenIM's whatever their compressed size). Its
    /// messages wait again when the close is reported (the engine's `outputOverflowed`).
    func checkOutputLimit(_ id: ConnectionID) {
        guard let channel = channels[id]?.channel, channel.isOpen, heldBytes(id, channel) > outputLimit else { return }
        confirmDelivery(on: id)  // what the peer took meanwhile is not held
        let held = heldBytes(id, channel)
        guard held > outputLimit else { return }
        logger.info(
            "session.overflow",
            ["conn": String(id.rawValue), "heldBytes": String(held),
             "pendingBytes": String(channel.pendingOutputBytes),
             "inFlight": String(domain.withValue { $0.engine.inFlightCount(of: id) })])
        perform(domain.value.outputOverflowed(id, nowMs: clock.nowMs))
    }

    private func heldBytes(_ id: ConnectionID, _ channel: any HubChannel) -> Int {
        channel.pendingOutputBytes + domain.withValue { $0.engine.heldBytes(of: id) }
    }

    // MARK: Idle timeout

    /// `--session-idle-timeout`, or the connection's dialect's minimum when that is longer.
    private func idleTimeout(of id: ConnectionID) -> Duration {
        guard let minimum = channels[id]?.withDialect({ $0.minimumIdleTimeout }) else { return idleTimeout }
        return max(idleTimeout, minimum)
    }

    /// Counts a jump of the clock to `targetMs` as activity on every connection, before the
    /// timeline steps through it: a client cannot ping during an instant jump, and an hour's
    /// jump must reach the token events, not drop every connection for silence. Idle timeouts
    /// still follow the clock while it flows.
    func clockWillJump(to targetMs: Int64) {
        jumpTargetMs = targetMs
        for id in Array(channels.keys) {
            if let last = channels[id]?.lastActivityMs, last < targetMs { channels[id]?.lastActivityMs = targetMs }
        }
    }

    /// The clock jump is over.
    func clockDidJump() { jumpTargetMs = nil }

    /// The server time frames carry: the clock's, or where a jump under way ends.
    private var wireNowMs: Int64 { max(clock.nowMs, jumpTargetMs ?? .min) }

    /// Closes the connections silent for their idle timeout, then checks again when the next
    /// one would be, but not sooner than ``idleSweepGranularityMs`` (a close may come that much
    /// late). One timer for all connections: a timer each cost memory per connection and a
    /// timeline entry per open. (Deadlines move lazily instead of on every frame.)
    private func sweepIdleConnections() {
        let now = (clockMs: clock.nowMs, monotonicNs: MonotonicInstant.now().nanoseconds)
        let step = IdleSweep.clockStepMs(
            clockDeltaMs: now.clockMs - idleReference.clockMs, realDeltaMs: (now.monotonicNs - idleReference.monotonicNs) / 1_000_000,
            granularityMs: idleSweepGranularityMs)
        idleReference = now
        if step > 0 {
            for state in channels.values { state.lastActivityMs = min(state.lastActivityMs + step, now.clockMs) }
        }
        let silences = channels.lazy.filter { $0.value.channel.isOpen }.map { id, state in
            IdleSweep.Silence(id: id, lastActivityMs: state.lastActivityMs, timeoutMs: self.idleTimeout(of: id).milliseconds)
        }
        let (close, next) = IdleSweep.due(silences, nowMs: clock.nowMs, granularityMs: idleSweepGranularityMs)
        for id in close {
            channels[id]?.channel.close(code: .goingAway, reason: "idle for longer than \(idleTimeout(of: id))")
        }
        if let next { scheduleIdleSweep(atMs: next) }
    }

    private func scheduleIdleSweep(atMs deadline: Int64) {
        idleSweepAtMs = deadline
        schedule(.idleSweep, atMs: deadline)
    }

    /// How much later than its deadline an idle connection may be closed: an eighth of
    /// `--session-idle-timeout`, between 10 ms and one second.
    private var idleSweepGranularityMs: Int64 { min(1000, max(10, idleTimeout.milliseconds / 8)) }
}
