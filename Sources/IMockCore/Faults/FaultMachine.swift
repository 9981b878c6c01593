/// The send path of faults as a pure value, like the engine: the shell hands it each item it
/// would send (and each fault it creates or clears) with the time, and carries out the
/// ``FaultMachine/Action``s it returns — send, drop, reset, pause or resume reading, arm a
/// wake-up. It never reads a clock: `nowNs` is the hold clock's time in nanoseconds (real
/// time, or the server's clock under `--clock virtual`), which the shell also uses for the
/// wake-ups it arms. The active faults themselves live in a ``FaultBook`` passed in.
public struct FaultMachine<Item: Sendable, Inbound: Sendable>: Sendable {
    /// What the shell does, in order.
    public enum Action: Sendable {
        /// Write the item on the connection now (skipped once the connection is gone).
        case send(ConnectionID, Item)
        /// Close the connection without a close frame.
        case drop(ConnectionID)
        /// Reset the connection (TCP RST).
        case reset(ConnectionID)
        /// Stop reading from the connection (a black hole took it).
        case pauseReading(ConnectionID)
        /// Read again.
        case resumeReading(ConnectionID)
        /// Handle a client message read while the connection was black-holed.
        case receive(ConnectionID, Inbound)
        /// Call ``FaultMachine/wake(_:nowNs:)`` for the connection at `atNs` (replacing the
        /// wake-up armed for it).
        case wake(ConnectionID, atNs: Int64)
        /// Disarm the connection's wake-up.
        case cancelWake(ConnectionID)
        /// Slice the connection's writes so from now on (nil: write them whole again).
        case slice(ConnectionID, FaultSlicing?)
        /// Clear the fault when the server clock reaches `atMs` (its `durationMs`).
        case expire(FaultID, atMs: Int64)
        /// The fault is gone (used up or cleared): disarm its expiry.
        case cancelExpiry(FaultID)
    }

    /// What ``add(_:target:durationMs:probability:seed:trigger:open:book:nowMs:nowNs:)`` made.
    public struct Creation: Sendable {
        /// The fault (kept active unless a drop or reset without duration or trigger).
        public var fault: Fault
        /// Whether it stays active (listed, clearable).
        public var active: Bool
        /// The connections it acted on or applies to now.
        public var affected: [ConnectionID]
        /// What the shell does now.
        public var actions: [Action]
    }

    /// The connections with something held or black-holed.
    public private(set) var lanes: [ConnectionID: FaultLane<Item, Inbound>] = [:]
    /// Connections between the engine's offline start and finish (their messages are offline).
    private var offlineSyncs: Set<ConnectionID> = []
    /// The slicer or bandwidth that slices each connection's writes.
    private var sliced: [ConnectionID: FaultID] = [:]

    /// A machine with nothing held.
    public init() {}

    // MARK: Send path

    /// One item the shell would send to the connection of `subject`, of `bytes` payload bytes.
    public mutating func send(
        _ item: Item, as outgoing: FaultOutgoing, bytes: Int = 0, to subject: FaultSubject, book: inout FaultBook,
        nowNs: Int64
    ) -> [Action] {
        let id = subject.connection
        let events = noteEvents(of: outgoing, on: id)
        guard !book.isEmpty || lanes[id] != nil else { return [.send(id, item)] }
        let decision = book.decide(outgoing, bytes: bytes, events: events, for: subject)
        var actions: [Action] = []
        for finished in decision.finished {
            book.remove(finished)  // a used-up dropFrames, a triggered drop (never a black hole)
            actions.append(.cancelExpiry(finished))
        }
        switch decision.action {
        case .discard: return actions
        case .drop: return actions + [.drop(id)]
        case .reset: return actions + [.reset(id)]
        case .deliver: break
        }
        actions += reslice(subject, book: &book)
        if let hole = decision.blackholedBy { actions += startBlackhole(id, by: hole) }
        var lane = lanes[id] ?? FaultLane()
        guard !lane.isIdle || decision.holdMs > 0 else { return actions + [.send(id, item)] }
        lane.hold(item, holdMs: decision.holdMs, nowNs: nowNs)
        lane.holders.formUnion(decision.heldBy)
        lanes[id] = lane
        return actions + release(id, nowNs: nowNs)
    }

    /// Whether an item for connection `id` goes straight out: no fault is active and nothing of
    /// the connection is held. The shell then writes it without building a subject or asking
    /// ``send(_:as:bytes:to:book:nowNs:)``, and tells ``passedThrough(_:on:)`` what it was.
    public func passesThrough(_ id: ConnectionID, book: FaultBook) -> Bool {
        book.isEmpty && lanes[id] == nil
    }

    /// Notes an item that went straight out (``passesThrough(_:book:)``): only where the
    /// connection's offline sync starts and ends, which later triggers read.
    public mutating func passedThrough(_ outgoing: FaultOutgoing, on id: ConnectionID) {
        switch outgoing {
        case .offlineStart: offlineSyncs.insert(id)
        case .offlineFinish: offlineSyncs.remove(id)
        case .loginReply, .message, .syncPage, .pong, .frame, .close: break
        }
    }

    /// The connection's wake-up came: what is due now goes.
    public mutating func wake(_ id: ConnectionID, nowNs: Int64) -> [Action] {
        lanes[id]?.wakeNs = nil
        return release(id, nowNs: nowNs)
    }

    /// A client message of `bytes` payload bytes arrived on the connection of `subject`: a drop
    /// when it crosses an upstream `limitData` (the message is not read), else nothing.
    public mutating func receive(bytes: Int, from subject: FaultSubject, book: inout FaultBook) -> [Action] {
        guard !book.isEmpty, book.crossesUpstreamLimit(bytes: bytes, for: subject) else { return [] }
        return [.drop(subject.connection)]
    }

    /// A client message arrived: false when the shell handles it now, true when the machine
    /// keeps it for the end of the connection's black hole.
    public mutating func holds(_ message: Inbound, on id: ConnectionID) -> Bool {
        guard lanes[id]?.blackhole != nil else { return false }
        lanes[id]?.inbound.append(message)
        return true
    }

    /// The connection closed: forget what it held.
    public mutating func forget(_ id: ConnectionID) -> [Action] {
        offlineSyncs.remove(id)
        sliced[id] = nil
        guard let lane = lanes.removeValue(forKey: id) else { return [] }
        return lane.wakeNs == nil ? [] : [.cancelWake(id)]
    }

    // MARK: Control

    /// Creates a fault over the connections `open` now: a drop or reset acts on the matching
    /// ones now (each with the fault's probability) unless it has a trigger; with a duration or
    /// a trigger it stays active and acts on later frames. A black hole without a trigger takes
    /// the matching connections now (each decided once).
    public mutating func add(
        _ kind: FaultKind, target: FaultTarget, durationMs: Int64?, probability: Double, seed: UInt64,
        trigger: FaultTrigger?, open: [FaultSubject], book: inout FaultBook, nowMs: Int64, nowNs: Int64
    ) -> Creation {
        book.seedIfNeeded(seed)
        var fault = book.make(kind, target: target, nowMs: nowMs, durationMs: durationMs, probability: probability, trigger: trigger)
        let active = !fault.endsAfterFirstUse || trigger != nil
        var actions: [Action] = []
        if active {
            book.insert(fault)
            if let expiry = fault.expiresAtMs { actions.append(.expire(fault.id, atMs: expiry)) }
        }
        var affected: [ConnectionID] = []
        for subject in open.sorted(by: { $0.connection < $1.connection }) where target.matches(subject) {
            let id = subject.connection
            switch kind {
            case .drop where trigger == nil, .reset where trigger == nil:
                guard active ? book.roll(fault.id) : fault.roll() else { continue }
                actions.append(kind == .reset ? .reset(id) : .drop(id))
            case .blackhole where trigger == nil:
                guard book.rollOnce(fault.id, for: id) else { continue }
                actions += startBlackhole(id, by: fault.id)
            default:
                break
            }
            affected.append(id)
        }
        if active, let kept = book.fault(fault.id) { fault = kept }
        return Creation(fault: fault, active: active, affected: affected, actions: actions)
    }

    /// Clears one active fault (cleared, or its duration passed). A black hole releases its
    /// connections (held items flow, the client messages read meanwhile are handled); a delay
    /// or holdLogin lets what it held go at once on the connections no other hold holds (on a
    /// virtual clock nothing else would move it). Nil when there is no such fault.
    public mutating func clear(_ id: FaultID, book: inout FaultBook, nowNs: Int64) -> (fault: Fault, actions: [Action])? {
        guard let fault = book.remove(id) else { return nil }
        var actions: [Action] = [.cancelExpiry(id)]
        for connection in sliced.keys.sorted() where sliced[connection] == id {
            sliced[connection] = nil
            actions.append(.slice(connection, nil))
        }
        for connection in lanes.keys.sorted() {
            if fault.kind == .blackhole, lanes[connection]?.blackhole == id {
                actions += endBlackhole(connection, nowNs: nowNs)
            } else if lanes[connection]?.holders.remove(id) != nil, lanes[connection]?.holders.isEmpty == true {
                lanes[connection]?.releaseAll(atNs: nowNs)
                actions += release(connection, nowNs: nowNs)
            }
        }
        return (fault, actions)
    }

    // MARK: Internals

    /// The events an item is (``FaultEvent``), after noting where the connection's offline
    /// sync begins and ends.
    private mutating func noteEvents(of outgoing: FaultOutgoing, on id: ConnectionID) -> Set<FaultEvent> {
        switch outgoing {
        case .loginReply:
            return [.loginAnswer]
        case .offlineStart:
            offlineSyncs.insert(id)
            return [.offlineSync]
        case .offlineFinish:
            offlineSyncs.remove(id)
            return [.offlineSync]
        case .message:
            return offlineSyncs.contains(id) ? [.offlineSync, .syncPage] : [.push]
        case .syncPage:
            return [.offlineSync, .syncPage]
        case .pong, .frame, .close:
            return []
        }
    }

    /// Slices the connection's writes as the first slicer or bandwidth acting on it says, when
    /// that changed; the fault counts each connection it starts slicing as applied.
    private mutating func reslice(_ subject: FaultSubject, book: inout FaultBook) -> [Action] {
        let wanted = book.slicing(for: subject)
        guard sliced[subject.connection] != wanted?.id else { return [] }
        sliced[subject.connection] = wanted?.id
        if let wanted { book.countApplied(wanted.id) }
        return [.slice(subject.connection, wanted?.slicing)]
    }

    /// Sends what is due in the connection's lane and asks for a wake-up at the next release.
    private mutating func release(_ id: ConnectionID, nowNs: Int64) -> [Action] {
        guard var lane = lanes[id] else { return [] }
        let (due, nextNs) = lane.takeDue(nowNs: nowNs)
        var actions = due.map { Action.send(id, $0) }
        if lane.isIdle {
            lanes[id] = nil
            if lane.wakeNs != nil { actions.append(.cancelWake(id)) }
            return actions
        }
        if lane.wakeNs != nextNs {
            lane.wakeNs = nextNs
            actions.append(nextNs.map { .wake(id, atNs: $0) } ?? .cancelWake(id))
        }
        lanes[id] = lane
        return actions
    }

    /// Stops reading from the connection and holds what the server sends.
    private mutating func startBlackhole(_ id: ConnectionID, by fault: FaultID) -> [Action] {
        guard lanes[id]?.blackhole == nil else { return [] }
        lanes[id, default: FaultLane()].blackhole = fault
        return [.pauseReading(id)]
    }

    /// Reads again, lets held items flow and hands back the client messages read meanwhile.
    private mutating func endBlackhole(_ id: ConnectionID, nowNs: Int64) -> [Action] {
        guard var lane = lanes[id] else { return [] }
        lane.blackhole = nil
        let inbound = lane.inbound
        lane.inbound = []
        lanes[id] = lane
        return [.resumeReading(id)] + release(id, nowNs: nowNs) + inbound.map { .receive(id, $0) }
    }
}
