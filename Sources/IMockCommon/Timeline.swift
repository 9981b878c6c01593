#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Why a timeline refused to move.
public enum VirtualClockError: Error, Sendable, Equatable {
    /// An advance by a negative amount.
    case negativeAdvance(Int64)
    /// A time before the current time.
    case movesBackwards(fromMs: Int64, toMs: Int64)
    /// The new time would be after this maximum (9999-12-31T23:59:59.999Z).
    case beyondMaximum(Int64)
}

/// The one clock and timer list of a run, shared by the server and every in-process client:
/// a test or a fixture moves one clock and every timer on both sides fires in deadline order.
///
/// It follows the wall clock (shifted by what it was moved) or stands still while frozen
/// (`imock serve --clock virtual` starts it frozen). Moving it forward — ``advance(by:)``,
/// ``set(to:)`` — steps through the timers that come due on the way, earliest first (equal
/// deadlines in scheduling order), each fired with the clock standing at its deadline.
/// While it flows, the owner of the run arms a real timer for ``nextDeadlineMs`` and calls
/// ``fireDue()``; ``onDeadlinesChanged(_:)`` tells it when to re-arm.
///
/// A timer scheduled as *deferrable* (a client's keep-alive) may fire late: while the timeline
/// holds them (``holdDeferrable()``), moving the clock past one leaves it unfired until
/// ``releaseDeferred()``, as an OS fires an overdue timer once after a suspension. The harness
/// holds them during a jump so that a ping is not sent every interval of a long advance.
///
/// Thread-safe. Timer actions run on the thread that moves the clock or calls `fireDue`, outside
/// the lock; an action whose state belongs to another event loop hops to it itself.
public final class Timeline: Sendable {
    /// How a timeline starts.
    public enum Mode: String, Sendable, CaseIterable {
        /// Following the wall clock.
        case system
        /// Frozen until moved.
        case virtual
    }

    /// The latest instant a timeline reaches: 9999-12-31T23:59:59.999Z.
    public static let maximumMs: Int64 = 253_402_300_799_999

    /// A scheduled action.
    public struct Timer: Hashable, Sendable {
        let id: TimerID
    }

    private struct Entry {
        var action: @Sendable () -> Void
        var deferrable: Bool
    }

    private struct State {
        /// Added to the wall clock while flowing.
        var offsetMs: Int64 = 0
        /// The time it stands at while frozen.
        var frozenAtMs: Int64?
        var timers = DeadlineQueue<Int64, Entry>()
        /// Whether deferrable timers wait for ``releaseDeferred()``.
        var holdingDeferrable = false
        /// Deferrable timers the clock passed while they were held, in deadline order.
        var held: [(id: TimerID, action: @Sendable () -> Void)] = []
        var observers: [@Sendable () -> Void] = []

        /// The next timer due by `limit` that may fire now (held ones are set aside on the way).
        mutating func popFiring(dueBy limit: Int64) -> (deadline: Int64, action: @Sendable () -> Void)? {
            while let due = timers.popFirst(dueBy: limit) {
                if holdingDeferrable && due.payload.deferrable {
                    held.append((due.id, due.payload.action))
                } else {
                    return (due.deadline, due.payload.action)
                }
            }
            return nil
        }
    }

    /// Where a timeline stands, without its timers: what `imock serve --data` stores so that a
    /// restart brings the clock back (docs/PERSISTENCE.md).
    public struct Position: Sendable, Equatable {
        /// Added to the wall clock while flowing (kept while frozen: it is where ``resume()``
        /// would not start from, but a stored value must round-trip).
        public var offsetMs: Int64
        /// The instant it stands at while frozen; nil while it flows.
        public var frozenAtMs: Int64?

        /// A position.
        public init(offsetMs: Int64, frozenAtMs: Int64?) {
            self.offsetMs = offsetMs
            self.frozenAtMs = frozenAtMs
        }
    }

    private let wallClock: @Sendable () -> Int64
    private let state: Mutex<State>

    /// A timeline in `mode`; a virtual one stands at `startMs` (default: the wall clock's now).
    public init(mode: Mode, startMs: Int64? = nil, wallClock: @escaping @Sendable () -> Int64 = Timeline.wallClockMs) {
        self.wallClock = wallClock
        var initial = State()
        if mode == .virtual { initial.frozenAtMs = min(startMs ?? wallClock(), Timeline.maximumMs) }
        state = Mutex(initial)
    }

    /// A timeline standing at `position` (frozen) or flowing with its offset from the wall
    /// clock: the clock of a restarted server, as its store kept it. Its timer list is empty.
    public init(position: Position, wallClock: @escaping @Sendable () -> Int64 = Timeline.wallClockMs) {
        self.wallClock = wallClock
        var initial = State()
        initial.offsetMs = position.offsetMs
        initial.frozenAtMs = position.frozenAtMs.map { min($0, Timeline.maximumMs) }
        state = Mutex(initial)
    }

    /// Where the timeline stands now (read under its lock).
    public var position: Position {
        state.withLock { Position(offsetMs: $0.offsetMs, frozenAtMs: $0.frozenAtMs) }
    }

    /// The wall clock (`CLOCK_REALTIME`) in epoch milliseconds.
    public static func wallClockMs() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    // MARK: Time

    /// The current time, epoch milliseconds.
    public var nowMs: Int64 { state.withLock { now($0) } }

    /// Whether time stands still until moved.
    public var isFrozen: Bool { state.withLock { $0.frozenAtMs != nil } }

    private func now(_ state: State) -> Int64 { state.frozenAtMs ?? wallClock().clampedAdding(state.offsetMs) }

    /// Moves forward by `deltaMs` (≥ 0), firing the timers that come due on the way.
    public func advance(by deltaMs: Int64) throws(VirtualClockError) {
        guard deltaMs >= 0 else { throw .negativeAdvance(deltaMs) }
        try set(to: nowMs.clampedAdding(deltaMs))
    }

    /// Moves to `timeMs` (not before now, not after ``maximumMs``), firing the timers that come
    /// due on the way in deadline order, each with the clock standing at its deadline.
    public func set(to timeMs: Int64) throws(VirtualClockError) {
        guard timeMs <= Self.maximumMs else { throw .beyondMaximum(Self.maximumMs) }
        let current = nowMs
        guard timeMs >= current else { throw .movesBackwards(fromMs: current, toMs: timeMs) }
        while let action = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let due = state.popFiring(dueBy: timeMs) else { return nil }
            place(&state, at: max(due.deadline, now(state)))
            return due.action
        }) {
            action()
        }
        state.withLock { state in
            if now(state) < timeMs { place(&state, at: timeMs) }
        }
        notifyObservers()
    }

    /// Moves to `timeMs` like ``set(to:)`` but fires nothing: the timers due on the way wait for
    /// the next ``fireDue()`` (a device clock moved before the server's, its timers fired after).
    public func stand(at timeMs: Int64) throws(VirtualClockError) {
        guard timeMs <= Self.maximumMs else { throw .beyondMaximum(Self.maximumMs) }
        try state.withLock { state throws(VirtualClockError) in
            let current = now(state)
            guard timeMs >= current else { throw .movesBackwards(fromMs: current, toMs: timeMs) }
            place(&state, at: timeMs)
        }
        notifyObservers()
    }

    /// Stands the clock at `timeMs` (frozen) or shifts the flowing clock to it.
    private func place(_ state: inout State, at timeMs: Int64) {
        if state.frozenAtMs != nil {
            state.frozenAtMs = timeMs
        } else {
            state.offsetMs = timeMs.clampedSubtracting(wallClock())
        }
    }

    /// Stops time at the current instant.
    public func freeze() {
        state.withLock { state in
            if state.frozenAtMs == nil { state.frozenAtMs = now(state) }
        }
        notifyObservers()
    }

    /// Lets time flow again from where it stands.
    public func resume() {
        state.withLock { state in
            guard let frozenAt = state.frozenAtMs else { return }
            state.offsetMs = frozenAt.clampedSubtracting(wallClock())
            state.frozenAtMs = nil
        }
        notifyObservers()
    }

    // MARK: Timers

    /// Runs `action` when the clock reaches `deadlineMs` (at the next ``fireDue()`` when that is
    /// already past); a `deferrable` one may wait while the timeline holds them (see the type).
    /// The observers hear of it only when it is the new earliest deadline.
    @discardableResult
    public func schedule(at deadlineMs: Int64, deferrable: Bool = false, _ action: @escaping @Sendable () -> Void) -> Timer {
        let (timer, earliest) = state.withLock { state in
            let previous = state.timers.nextDeadline
            let id = state.timers.schedule(at: deadlineMs, Entry(action: action, deferrable: deferrable))
            return (Timer(id: id), previous.map { deadlineMs < $0 } ?? true)
        }
        if earliest { notifyObservers() }
        return timer
    }

    /// Forgets `timer` (harmless when it already fired).
    public func cancel(_ timer: Timer) {
        state.withLock { state in
            if !state.timers.cancel(timer.id) { state.held.removeAll { $0.id == timer.id } }
        }
    }

    /// The earliest pending deadline (while deferrable timers are held, the earliest of the others).
    public var nextDeadlineMs: Int64? {
        state.withLock { state in
            guard state.holdingDeferrable else { return state.timers.nextDeadline }
            return state.timers.entries.lazy.filter { !$0.payload.deferrable }.map(\.deadline).min()
        }
    }

    /// Fires every timer due at the current time, earliest first (also the ones their actions
    /// schedule for now); held deferrable ones keep waiting.
    public func fireDue() {
        while let action = state.withLock({ state in state.popFiring(dueBy: now(state))?.action }) {
            action()
        }
    }

    // MARK: Deferrable timers

    /// From now on, deferrable timers the clock passes wait for ``releaseDeferred()``.
    public func holdDeferrable() {
        state.withLock { $0.holdingDeferrable = true }
        notifyObservers()
    }

    /// Stops holding deferrable timers and fires the ones that came due meanwhile, earliest
    /// first, with the clock where it stands (then whatever else is due); returns how many
    /// were held.
    @discardableResult
    public func releaseDeferred() -> Int {
        let held = state.withLock { state in
            state.holdingDeferrable = false
            defer { state.held = [] }
            return state.held
        }
        for timer in held { timer.action() }
        fireDue()
        notifyObservers()
        return held.count
    }

    /// Calls `observer` (on any thread) whenever the earliest deadline or the flow of time may
    /// have changed, so the owner of the run can re-arm its real timer.
    public func onDeadlinesChanged(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    private func notifyObservers() {
        for observer in state.withLock({ $0.observers }) { observer() }
    }
}
