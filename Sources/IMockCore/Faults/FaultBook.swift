import IMockCommon
/// The active faults of a server and the decisions they make, in creation order. Pure: the
/// shell asks it what to do with a frame, a login or a logout and carries the answer out.
public struct FaultBook: Sendable {
    /// Active faults, oldest first.
    public private(set) var faults: [Fault] = []
    /// The seed every fault's random stream derives from (`--seed-random`, else random);
    /// nil until the first fault is made.
    public private(set) var baseSeed: UInt64?
    private var nextSerial: UInt64 = 1

    /// An empty book.
    public init() {}

    /// Whether no fault is active (the shell then skips every check).
    public var isEmpty: Bool { faults.isEmpty }

    /// Fixes the base seed if none is set yet (the first fault's creation does this).
    public mutating func seedIfNeeded(_ seed: UInt64) {
        if baseSeed == nil { baseSeed = seed }
    }

    /// Makes a fault with the next id and its own random stream; `insert` keeps it active.
    /// `durationMs` nil means until cleared.
    public mutating func make(
        _ kind: FaultKind, target: FaultTarget, nowMs: Int64, durationMs: Int64?, probability: Double,
        trigger: FaultTrigger? = nil
    ) -> Fault {
        let serial = nextSerial
        nextSerial += 1
        let seed = SplitMix64.derive(baseSeed ?? 0, serial)
        let expiry = durationMs.map { nowMs.addingReportingOverflow($0).overflow ? Int64.max : nowMs + $0 }
        return Fault(
            id: FaultID(rawValue: serial), kind: kind, target: target, createdAtMs: nowMs, expiresAtMs: expiry,
            probability: probability, seed: seed, trigger: trigger)
    }

    /// Keeps `fault` active.
    public mutating func insert(_ fault: Fault) { faults.append(fault) }

    /// The active fault with `id`.
    public func fault(_ id: FaultID) -> Fault? { faults.first { $0.id == id } }

    /// Clears one fault; returns it.
    @discardableResult
    public mutating func remove(_ id: FaultID) -> Fault? {
        guard let index = faults.firstIndex(where: { $0.id == id }) else { return nil }
        return faults.remove(at: index)
    }

    /// Clears every fault (of `app` only, when given: its app, user and resource targets);
    /// returns them.
    public mutating func removeAll(app: AppKey? = nil) -> [Fault] {
        let (gone, kept) = faults.reduce(into: ([Fault](), [Fault]())) { result, fault in
            if app == nil || fault.target.app == app { result.0.append(fault) } else { result.1.append(fault) }
        }
        faults = kept
        return gone
    }

    // MARK: Decisions

    /// Decides what happens to one outgoing item of `bytes` payload bytes on a connection
    /// described by `subject`; `events` are the kinds of frame it is (``FaultEvent``), which
    /// fire triggers.
    public mutating func decide(
        _ item: FaultOutgoing, bytes: Int = 0, events: Set<FaultEvent> = [], for subject: FaultSubject
    ) -> FaultDecision {
        var decision = FaultDecision()
        guard !faults.isEmpty else { return decision }
        let connection = subject.connection
        if item != .close {
            for index in faults.indices where faults[index].target.matches(subject) {
                faults[index].observeFrame(events, to: connection)
            }
            for index in faults.indices where faults[index].kind.endsConnection && acts(index, on: subject) {
                if faults[index].roll() {
                    decision.action = faults[index].kind == .reset ? .reset : .drop
                    if faults[index].endsAfterFirstUse { decision.finished.append(faults[index].id) }
                    return decision
                }
            }
        }
        for index in faults.indices where acts(index, on: subject) {
            switch faults[index].kind {
            case .blackhole:
                if item != .close, decision.blackholedBy == nil, faults[index].rollOnce(for: subject.connection) {
                    decision.blackholedBy = faults[index].id
                }
            case .noPong:
                if item == .pong, decision.action == .deliver, faults[index].roll() { decision.action = .discard }
            case .dropFrames:
                if item != .close, decision.action == .deliver, faults[index].remainingFrames > 0, faults[index].roll() {
                    decision.action = .discard
                    faults[index].remainingFrames -= 1
                    if faults[index].remainingFrames == 0 { decision.finished.append(faults[index].id) }
                }
            case .delay(let ms, let jitterMs):
                if faults[index].roll() { decision.hold(ms + faults[index].draw(upTo: jitterMs), by: faults[index].id) }
            case .limitData(_, .downstream):
                if item != .close, decision.action == .deliver, faults[index].crossesLimit(adding: bytes, on: connection) {
                    decision.action = .drop
                }
            case .holdLogin(let ms):
                if item == .loginReply, faults[index].roll() { decision.hold(ms, by: faults[index].id) }
            case .drop, .reset, .failUnbind, .failSync, .limitData(_, .upstream), .slicer, .bandwidth:
                break
            }
        }
        return decision
    }

    /// Whether the fault at `index` matches `subject` and its trigger (if any) fired there.
    private func acts(_ index: Int, on subject: FaultSubject) -> Bool {
        faults[index].target.matches(subject) && faults[index].isArmed(for: subject.connection)
    }

    /// Whether a client message of `bytes` payload bytes on the connection of `subject` crosses
    /// an upstream `limitData` (the connection then closes instead of reading it).
    public mutating func crossesUpstreamLimit(bytes: Int, for subject: FaultSubject) -> Bool {
        var crossed = false
        for index in faults.indices {
            guard case .limitData(_, .upstream) = faults[index].kind, acts(index, on: subject) else { continue }
            if faults[index].crossesLimit(adding: bytes, on: subject.connection) { crossed = true }
        }
        return crossed
    }

    /// The first active slicer or bandwidth that acts on `subject`, with its slicing.
    public func slicing(for subject: FaultSubject) -> (id: FaultID, slicing: FaultSlicing)? {
        for index in faults.indices where acts(index, on: subject) {
            if let slicing = faults[index].kind.slicing { return (faults[index].id, slicing) }
        }
        return nil
    }

    /// Counts one more event the fault `id` applied to (a connection a slicer or bandwidth took).
    mutating func countApplied(_ id: FaultID) {
        guard let index = faults.firstIndex(where: { $0.id == id }) else { return }
        faults[index].applied += 1
    }

    /// Whether the active black hole `id` takes `connection` (decided once per connection).
    public mutating func rollOnce(_ id: FaultID, for connection: ConnectionID) -> Bool {
        guard let index = faults.firstIndex(where: { $0.id == id }) else { return false }
        return faults[index].rollOnce(for: connection)
    }

    /// The faults of one command: `failUnbind` for a logout that unbinds, `failSync` for a login
    /// that asks for a data sync. Each matching fault rolls once.
    public mutating func commandFaults(for subject: FaultSubject, logoutUnbinds: Bool, syncTypes: [SyncType])
        -> CommandFaults
    {
        var result = CommandFaults()
        for index in faults.indices where faults[index].target.matches(subject) {
            switch faults[index].kind {
            case .failUnbind:
                if logoutUnbinds, !result.failUnbind, faults[index].roll() { result.failUnbind = true }
            case .failSync(let types):
                let hit = types.intersection(syncTypes)
                if !hit.isEmpty, faults[index].roll() { result.failingSyncTypes.formUnion(hit) }
            default:
                break
            }
        }
        return result
    }

    /// Draws whether the active fault `id` applies to one event (false when it is gone).
    public mutating func roll(_ id: FaultID) -> Bool {
        guard let index = faults.firstIndex(where: { $0.id == id }) else { return false }
        return faults[index].roll()
    }
}

/// An outgoing item the shell asks the book about, as the engine's output (or a dialect's own
/// answer) that made it.
public enum FaultOutgoing: Sendable, Equatable {
    /// A `pong` (reply to the `ping` op).
    case pong
    /// `login.ok` or `login.error`.
    case loginReply
    /// The start of the offline sync the engine pushes.
    case offlineStart
    /// The end of the offline sync the engine pushes.
    case offlineFinish
    /// A chat message pushed (offline between the sync's start and end, else live).
    case message
    /// A dialect's answer to a device's pull of queued messages.
    case syncPage
    /// Any other frame.
    case frame
    /// A WebSocket close.
    case close
}

/// What to do with one outgoing item.
public struct FaultDecision: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Send it (after `holdMs`).
        case deliver
        /// Do not send it.
        case discard
        /// Close the connection without a close frame, instead of sending.
        case drop
        /// Reset the connection (RST), instead of sending.
        case reset
    }

    public var action: Action = .deliver
    /// Milliseconds to hold it (and everything after it on the connection), on the hold clock.
    public var holdMs: Int64 = 0
    /// The delay and holdLogin faults that hold it.
    public var heldBy: [FaultID] = []
    /// A black hole that takes the connection now.
    public var blackholedBy: FaultID?
    /// Faults used up by this decision (a `dropFrames` that reached its count, a triggered drop
    /// or reset that acted).
    public var finished: [FaultID] = []

    public init() {}

    /// Holds the item `ms` (the longest hold wins) on behalf of `fault`.
    mutating func hold(_ ms: Int64, by fault: FaultID) {
        holdMs = max(holdMs, ms)
        heldBy.append(fault)
    }
}
