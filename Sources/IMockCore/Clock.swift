import IMockCommon
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of the current time in integer epoch milliseconds.
///
/// Every expiry and timer in imock reads a `Clock`, so a run on a ``VirtualClock`` is
/// deterministic and a one-hour token expiry is a millisecond test.
public protocol Clock: Sendable {
    /// The current time in milliseconds since 1970-01-01T00:00:00Z.
    var nowMs: Int64 { get }
}

/// The real wall clock (`CLOCK_REALTIME`). The only place in `IMockCore` that reads real time.
public struct SystemClock: Clock {
    /// Creates the wall clock.
    public init() {}

    /// The current wall-clock time in epoch milliseconds.
    public var nowMs: Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}

/// Why a ``VirtualClock`` refused to move.
public enum VirtualClockError: Error, Sendable, Equatable {
    /// `advance(by:)` got a negative amount.
    case negativeAdvance(Int64)
    /// `set(to:)` got a time before the current time.
    case movesBackwards(fromMs: Int64, toMs: Int64)
    /// The new time would be after this maximum (``ValueLimits/maximumEpochMs``).
    case beyondMaximum(Int64)
}

/// A clock that moves only when told.
///
/// It is a *value*: the server keeps one inside its loop-confined state (so it is never
/// shared between threads) and passes `nowMs` to the domain. Time never moves backwards;
/// a request to do so is an error and leaves the clock unchanged. After moving it, the owner
/// pops due timers from its ``TimerSchedule`` with the new `nowMs`.
public struct VirtualClock: Clock, Equatable {
    /// The current virtual time in epoch milliseconds.
    public private(set) var nowMs: Int64

    /// Creates a virtual clock that starts at `startMs`.
    public init(startMs: Int64 = 0) {
        nowMs = startMs
    }

    /// Moves the clock forward by `deltaMs` (0 is allowed and changes nothing).
    @discardableResult
    public mutating func advance(by deltaMs: Int64) throws(VirtualClockError) -> Int64 {
        guard deltaMs >= 0 else { throw .negativeAdvance(deltaMs) }
        return try set(to: nowMs.clampedAdding(deltaMs))
    }

    /// Sets the clock to `timeMs`, which must not be before the current time nor after
    /// ``ValueLimits/maximumEpochMs``.
    @discardableResult
    public mutating func set(to timeMs: Int64) throws(VirtualClockError) -> Int64 {
        guard timeMs <= ValueLimits.maximumEpochMs else { throw .beyondMaximum(ValueLimits.maximumEpochMs) }
        guard timeMs >= nowMs else { throw .movesBackwards(fromMs: nowMs, toMs: timeMs) }
        nowMs = timeMs
        return nowMs
    }
}
