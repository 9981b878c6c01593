import IMockCommon

/// A source of the current time in integer epoch milliseconds.
///
/// Every expiry and timer in imock reads a `Clock`, so a run on a virtual `Timeline`
/// (`--clock virtual`) is deterministic and a one-hour token expiry is a millisecond test.
public protocol Clock: Sendable {
    /// The current time in milliseconds since 1970-01-01T00:00:00Z.
    var nowMs: Int64 { get }
}

/// The real wall clock (`CLOCK_REALTIME`, read by ``Timeline/wallClockMs()``, the one place
/// that reads it). The only place in `IMockCore` that reads real time.
public struct SystemClock: Clock {
    /// Creates the wall clock.
    public init() {}

    /// The current wall-clock time in epoch milliseconds.
    public var nowMs: Int64 { Timeline.wallClockMs() }
}

/// The run's shared timeline is the server's clock.
extension Timeline: Clock {}
