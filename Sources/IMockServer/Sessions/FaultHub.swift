import IMockCommon
import IMockCore
import IMockNet
import IMockWire

/// The hub's side of control-API faults: every frame and close the engine sends passes
/// through `deliver`, which hands it to the pure ``FaultMachine`` with the time and carries out
/// the actions it returns (send, drop, reset, pause or resume reading, wake-ups). The hub owns
/// the timers: holds (delay, holdLogin) run on real time through loop timers, since frames are
/// real I/O, or on the server clock when it started frozen (`--clock virtual`); fault
/// durations run on the server clock (`HubTimer.faultExpiry`).
extension SessionHub {
    // MARK: Control

    /// Creates a fault (``FaultMachine/add(_:target:durationMs:probability:seed:trigger:open:book:nowMs:nowNs:)``)
    /// and carries out what it does to the open connections now.
    func addFault(
        _ kind: FaultKind, target: FaultTarget, durationMs: Int64?, probability: Double, seed: UInt64,
        trigger: FaultTrigger? = nil
    ) -> HubFaultMachine.Creation {
        let open = channels.keys.map { faultSubject(of: $0) }
        let creation = faultMachine.add(
            kind, target: target, durationMs: durationMs, probability: probability, seed: seed, trigger: trigger, open: open,
            book: &domain.value.faults, nowMs: clock.nowMs, nowNs: holdClockNs)
        carryOut(creation.actions)
        return creation
    }

    /// Clears one active fault; a black hole releases its connections (held frames flow, the
    /// client frames read meanwhile are handled). Nil when there is no such fault.
    @discardableResult
    func clearFault(_ id: FaultID) -> Fault? {
        guard let (fault, actions) = faultMachine.clear(id, book: &domain.value.faults, nowNs: holdClockNs) else { return nil }
        carryOut(actions)
        return fault
    }

    /// Clears every active fault (of `app` only, when given).
    func clearAllFaults(app: AppKey?) -> [Fault] {
        let ids = domain.value.faults.faults.filter { app == nil || $0.target.app == app }.map(\.id)
        return ids.compactMap { clearFault($0) }
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

    /// Sends a frame or close to a connection through the active faults.
    func deliver(_ item: OutgoingItem, as outgoing: FaultOutgoing, to id: ConnectionID) {
        guard let state = channels[id] else { return }
        if faultMachine.passesThrough(id, book: domain.value.faults) {
            faultMachine.passedThrough(outgoing, on: id)
            send(item, on: state, id: id)
            return
        }
        carryOut(
            faultMachine.send(
                item, as: outgoing, bytes: item.payloadBytes, to: faultSubject(of: id), book: &domain.value.faults,
                nowNs: holdClockNs))
    }

    /// Whether an upstream `limitData` closes the connection instead of reading `message`.
    func limitsUpstream(_ message: WireMessage, on id: ConnectionID) -> Bool {
        guard !domain.value.faults.isEmpty else { return false }
        let actions = faultMachine.receive(bytes: message.payloadBytes, from: faultSubject(of: id), book: &domain.value.faults)
        carryOut(actions)
        return !actions.isEmpty
    }

    /// The time of the clock holds run on, in nanoseconds (``FaultMachine``'s `nowNs`).
    private var holdClockNs: Int64 {
        holdsOnServerClock ? clock.nowMs * 1_000_000 : MonotonicInstant.now().nanoseconds
    }

    /// Carries out the fault machine's actions in order; those for a connection that is gone
    /// (a send closed it) are skipped.
    private func carryOut(_ actions: [HubFaultMachine.Action]) {
        for action in actions {
            switch action {
            case .send(let id, let item):
                guard let state = channels[id] else { continue }
                send(item, on: state, id: id)
            case .drop(let id): channels[id]?.channel.abort(.immediately)
            case .reset(let id): channels[id]?.channel.abort(.reset)
            case .pauseReading(let id): channels[id]?.channel.pauseReading()
            case .resumeReading(let id): channels[id]?.channel.resumeReading()
            case .receive(let id, let message):
                if channels[id] != nil { received(message, on: id) }
            case .wake(let id, let atNs): armFaultWake(id, atNs: atNs)
            case .cancelWake(let id): cancelFaultWake(id)
            case .slice(let id, let slicing):
                channels[id]?.channel.sliceOutput(slicing.map { ($0.bytes, .nanoseconds($0.delayNs)) })
            case .expire(let fault, let atMs): schedule(.faultExpiry(fault), atMs: atMs)
            case .cancelExpiry(let fault): timers.cancel(.faultExpiry(fault), on: clock)
            }
        }
    }

    private func send(_ item: OutgoingItem, on state: ChannelState, id: ConnectionID) {
        let channel = state.channel
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
            if let chat { noteWritten(chat, on: state, id: id) }
            for pulled in carried { noteWritten(pulled, on: state, id: id) }
        case .close(let code, let reason): channel.close(code: code, reason: reason)
        }
    }

    // MARK: Wake-ups

    /// Arms the connection's wake-up at `atNs` of the hold clock (replacing an armed one).
    private func armFaultWake(_ id: ConnectionID, atNs: Int64) {
        cancelFaultWake(id)
        guard channels[id] != nil else { return }
        if holdsOnServerClock {
            schedule(.faultRelease(id), atMs: (atNs + 999_999) / 1_000_000)
            return
        }
        let delay = Duration.nanoseconds(max(0, atNs - MonotonicInstant.now().nanoseconds))
        faultWakes[id] = loop.scheduleTimer(after: delay) { [weak self] in
            self?.faultWakes[id] = nil
            self?.wakeFaults(id)
        }
    }

    private func cancelFaultWake(_ id: ConnectionID) {
        if let timer = faultWakes.removeValue(forKey: id) { loop.cancelTimer(timer) }
        timers.cancel(.faultRelease(id), on: clock)
    }

    /// The connection's wake-up fired: what is due goes.
    func wakeFaults(_ id: ConnectionID) {
        carryOut(faultMachine.wake(id, nowNs: holdClockNs))
    }

    // MARK: Subjects

    /// What faults see of a connection: its session, else what it was last known as (its
    /// login request, or the session that ended: see `rememberFaultSubject`).
    func faultSubject(of id: ConnectionID) -> FaultSubject {
        let remembered = faultSubjects[id]
        return domain.withValue { $0.faultSubject(of: id, remembered: remembered) }
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
        carryOut(faultMachine.forget(id))
        faultSubjects[id] = nil
    }
}
