import IMockCommon
/// The server's clock as the control API sees it: it follows a base clock (the wall clock)
/// shifted by an offset, or stands still while frozen. `advance` and `set` move it forward in
/// either state; it never moves backwards.
///
/// `imock serve --clock virtual` starts it frozen: time then moves only when told, so a run is
/// deterministic. `resume` lets a frozen clock flow again from where it stands.
public struct ControllableClock: Clock {
    private let base: any Clock
    /// Added to the base clock's time while flowing.
    public private(set) var offsetMs: Int64 = 0
    /// The time it stands at while frozen; nil while flowing.
    public private(set) var frozenAtMs: Int64?

    /// A clock that follows `base`, or stands frozen at `base`'s current time when `frozen`.
    public init(base: any Clock = SystemClock(), frozen: Bool = false) {
        self.base = base
        if frozen { frozenAtMs = base.nowMs }
    }

    public var nowMs: Int64 { frozenAtMs ?? base.nowMs &+ offsetMs }

    /// Whether time stands still until told to move.
    public var isFrozen: Bool { frozenAtMs != nil }

    /// Moves the clock forward by `deltaMs` (≥ 0), at most to ``ValueLimits/maximumEpochMs``.
    public mutating func advance(by deltaMs: Int64) throws(VirtualClockError) {
        guard deltaMs >= 0 else { throw .negativeAdvance(deltaMs) }
        try set(to: nowMs.clampedAdding(deltaMs))
    }

    /// Moves the clock to `timeMs`, which must not be before the current time nor after
    /// ``ValueLimits/maximumEpochMs`` (so every deadline computed from the clock fits 64 bits).
    public mutating func set(to timeMs: Int64) throws(VirtualClockError) {
        let now = nowMs
        guard timeMs <= ValueLimits.maximumEpochMs else { throw .beyondMaximum(ValueLimits.maximumEpochMs) }
        guard timeMs >= now else { throw .movesBackwards(fromMs: now, toMs: timeMs) }
        if frozenAtMs != nil {
            frozenAtMs = timeMs
        } else {
            offsetMs += timeMs - now
        }
    }

    /// Stops time at the current instant.
    public mutating func freeze() {
        if frozenAtMs == nil { frozenAtMs = nowMs }
    }

    /// Lets time flow again from where it stands.
    public mutating func resume() {
        guard let frozenAtMs else { return }
        offsetMs = frozenAtMs - base.nowMs
        self.frozenAtMs = nil
    }
}
