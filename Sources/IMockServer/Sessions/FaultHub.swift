import IMockCommon
import IMockCore
import IMockNet
import IMockWire

/// The hub's side of control-API faults: every frame and close the engine sends passes
/// through `deliver`, which asks the `FaultBook` and then sends, holds, discards, drops or
/// resets. Holds (delay, holdLogin) run on real time through loop timers, since frames are
/// real I/O; fault durations run on the server clock (`HubTimer.faultExpiry`).
extension SessionHub {
    /// What `addFault` did.
    struct FaultCreation {
        /// The fault (kept active unless a drop or reset without duration).
        var fault: Fault
        /// Whether it stays active (listed, clearable).
        var active: Bool
        /// The connections it acted on or applies to now.
        var affected: [ConnectionID]
    }

    // MARK: Control

    /// Creates a fault: a drop or reset acts on the matching open connections now (each with
    /// the fault's probability); with a duration it stays active and also acts on later frames.
    /// A black hole takes the matching open connections now (each decided once).
    func addFault(
        _ kind: FaultKind, target: FaultTarget, durationMs: Int64?, probability: Double, seed: UInt64
    ) -> FaultCreation {
        let now = clock.nowMs
        domain.value.faults.seedIfNeeded(seed)
        var fault = domain.value.faults.make(kind, target: target, nowMs: now, durationMs: durationMs, probability: probability)
        let active = !(kind.endsConnection && durationMs == nil)
        if active {
            domain.value.faults.insert(fault)
            if let expiry = fault.expiresAtMs {
                schedule(.faultExpiry(fault.id), atMs: expiry)
            }
        }
        let matching = channels.keys.sorted().filter { target.matches(faultSubject(of: $0)) }
        var affected: [ConnectionID] = []
        for id in matching {
            guard let channel = channels[id]?.channel else { continue }
            switch kind {
            case .drop, .reset:
                guard active ? domain.value.faults.roll(fault.id) : fault.roll() else { continue }
                affected.append(id)
                channel.abort(kind == .reset ? .reset : .immediately)
            case .blackhole:
                guard domain.value.faults.rollOnce(fault.id, for: id) else { continue }
                affected.append(id)
                startBlackhole(id, by: fault.id)
            default:
                affected.append(id)
            }
        }
        if active, let kept = domain.value.faults.fault(fault.id) { fault = kept }
        return FaultCreation(fault: fault, active: active, affected: affected)
    }

    /// Clears one active fault; a black hole releases its connections (held frames flow, the
    /// client frames read meanwhile are handled). Nil when there is no such fault.
    @discardableResult
    func clearFault(_ id: FaultID) -> Fault? {
        guard let fault = domain.value.faults.remove(id) else { return nil }
        timers.cancel(.faultExpiry(id), on: clock)
        guard fault.kind == .blackhole else { return fault }
        for connection in faultOutboxes.keys.sorted() where faultOutboxes[connection]?.blackhole == id {
            endBlackhole(connection)
        }
        return fault
    }

    /// Clears every active fault (of `app` only, when given).
    func clearAllFaults(app: AppKey?) -> [Fault] {
        let ids = domain.value.faults.faults.filter { app == nil || $0.target.app == app }.map(\.id)
        return ids.compactMap { clearFault($0) }
    }

    /// The open connections `target` matches now.
    func connections(matching target: FaultTarget) -> [ConnectionID] {
        channels.keys.sorted().filter { target.matches(faultSubject(of: $0)) }
    }

    // MARK: Receive path

    /// A login records the app and user the connection asks for, so faults match it before its
    /// session exists and after it ends (a kick).
    func noteLoginSubject(_ request: LoginRequest, on id: ConnectionID) {
        guard let app = try? AppKey(parsing: request.appKey) else { return }
        faultSubjects[id] = FaultSubject(
            connection: id, app: app, user: try? UserFields.normalizeUsername(request.user),
            resource: request.device.resource)
    }

    // MARK: Send path

    /// Sends a frame or close to a connection through the active domain.value.faults.
    func deliver(_ item: FaultOutbox.Item, as outgoing: FaultOutgoing, to id: ConnectionID) {
        guard let channel = channels[id]?.channel else { return }
        guard !domain.value.faults.isEmpty || faultOutboxes[id] != nil else {
            send(item, on: channel, id: id)
            return
        }
        let decision = domain.value.faults.decide(outgoing, for: faultSubject(of: id))
        for finished in decision.finished {
            domain.value.faults.remove(finished)  // a used-up dropFrames (never a black hole)
            timers.cancel(.faultExpiry(finished), on: clock)
        }
        switch decision.action {
        case .discard:
            return
        case .drop:
            channel.abort(.immediately)
            return
        case .reset:
            channel.abort(.reset)
            return
        case .deliver:
            break
        }
        if let hole = decision.blackholedBy { startBlackhole(id, by: hole) }
        var outbox = faultOutboxes[id] ?? FaultOutbox()
        guard !outbox.isIdle || decision.holdMs > 0 else {
            send(item, on: channel, id: id)
            return
        }
        outbox.hold(item, holdMs: decision.holdMs, nowNs: MonotonicInstant.now().nanoseconds)
        faultOutboxes[id] = outbox
        pumpFaultOutbox(id)
    }

    private func send(_ item: FaultOutbox.Item, on channel: any HubChannel, id: ConnectionID) {
        switch item {
        case .message(let message, let chat, let carried):
            // A closing channel drops what it is sent: a chat message not written is not noted
            // (the ledger would count it delivered once the stream before it was acknowledged).
            let written = channel.isOpen
            switch message {
            case .text(let text): channel.send(text: text)
            case .binary(let bytes): channel.send(binary: bytes)
            }
            guard written else { return }
            if let chat { noteWritten(chat, on: id) }
            for pulled in carried { noteWritten(pulled, on: id) }
        case .close(let code, let reason): channel.close(code: code, reason: reason)
        }
    }

    /// Sends what is due in the connection's outbox (``FaultOutbox/takeDue(nowNs:)``) and arms
    /// a loop timer for the rest.
    private func pumpFaultOutbox(_ id: ConnectionID) {
        guard var outbox = faultOutboxes[id], channels[id] != nil else { return }
        if let timer = outbox.timer { loop.cancelTimer(timer) }
        outbox.timer = nil
        let (due, nextNs) = outbox.takeDue(nowNs: MonotonicInstant.now().nanoseconds)
        faultOutboxes[id] = outbox.isIdle ? nil : outbox
        for item in due {
            guard let channel = channels[id]?.channel else { return }  // a send closed it
            send(item, on: channel, id: id)
        }
        guard let nextNs, faultOutboxes[id] != nil else { return }
        faultOutboxes[id]?.timer = loop.scheduleTimer(after: .nanoseconds(max(0, nextNs - MonotonicInstant.now().nanoseconds))) {
            [weak self] in
            self?.faultOutboxes[id]?.timer = nil
            self?.pumpFaultOutbox(id)
        }
    }

    // MARK: Black holes

    /// Stops reading from the connection and holds what the server sends (the socket stays).
    private func startBlackhole(_ id: ConnectionID, by fault: FaultID) {
        guard let channel = channels[id]?.channel, faultOutboxes[id]?.blackhole == nil else { return }
        faultOutboxes[id, default: FaultOutbox()].blackhole = fault
        channel.pauseReading()
    }

    /// Reads again, handles the client frames read meanwhile and lets held frames flow.
    private func endBlackhole(_ id: ConnectionID) {
        guard let channel = channels[id]?.channel, var outbox = faultOutboxes[id] else { return }
        outbox.blackhole = nil
        let inbound = outbox.inbound
        outbox.inbound = []
        faultOutboxes[id] = outbox
        channel.resumeReading()
        pumpFaultOutbox(id)
        for message in inbound where channels[id] != nil { received(message, on: id) }
    }

    // MARK: Subjects

    /// What faults see of a connection: its session, else what it was last known as (its
    /// login request, or the session that ended: see `rememberFaultSubject`).
    func faultSubject(of id: ConnectionID) -> FaultSubject {
        let subject = domain.value.engine.faultSubject(of: id)
        return subject.app != nil ? subject : faultSubjects[id] ?? subject
    }

    /// Keeps what faults need of a connection across its session: nothing while the engine
    /// has the session (it knows), the session's subject once it ended.
    func rememberFaultSubject(for output: SessionOutput) {
        switch output {
        case .reply(let id, _, .loginAccepted):
            faultSubjects[id] = nil
        case .end(let id, let end) where end.subject.resource != nil:
            faultSubjects[id] = end.subject
        default:
            break
        }
    }

    /// Forgets a closed connection's held frames and subject.
    func forgetFaultState(of id: ConnectionID) {
        if let timer = faultOutboxes.removeValue(forKey: id)?.timer { loop.cancelTimer(timer) }
        faultSubjects[id] = nil
    }
}
