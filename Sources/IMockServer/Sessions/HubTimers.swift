import IMockCommon
import IMockCore

/// What a hub timer is for.
enum HubTimer: Hashable, Sendable {
    /// The session engine's wake-up: its earliest token timer (one timer for every session's
    /// token warning and expiry, which the engine keeps in its own queue).
    case engineTimers
    /// The idle check of every session connection (one timer, not one per connection).
    case idleSweep
    /// The end of a control-API fault's `durationMs`.
    case faultExpiry(FaultID)
    /// The fault machine's wake-up for a connection's held frames, when holds run on the server
    /// clock (`--clock virtual`).
    case faultRelease(ConnectionID)

    /// Whether it may run late, after a jump of a timeline that holds deferrable timers
    /// (`Timeline.holdDeferrable()`, the harness's advances): the idle sweep, since a jump counts
    /// as activity on every connection and a sweep on the way closes nothing.
    var mayFireLate: Bool { self == .idleSweep }
}

/// The hub's timers on the run's `Timeline`: deadlines are epoch milliseconds of that clock, so
/// they follow it when it is frozen, advanced or set, and fire in deadline order with the timers
/// of every in-process client sharing the timeline. Loop-confined (the map); the timeline's
/// actions hop to the hub's loop.
struct HubTimers {
    private var ids: [HubTimer: Timeline.Timer] = [:]

    var count: Int { ids.count }

    /// Schedules `timer` at `atMs` (replacing the same timer if pending); `fire` runs on the
    /// timeline's firing thread. (It is the timeline's action itself, not wrapped: one closure
    /// context per timer.)
    mutating func add(_ timer: HubTimer, atMs: Int64, on timeline: Timeline, fire: @escaping @Sendable () -> Void) {
        cancel(timer, on: timeline)
        ids[timer] = timeline.schedule(at: atMs, deferrable: timer.mayFireLate, fire)
    }

    mutating func cancel(_ timer: HubTimer, on timeline: Timeline) {
        if let id = ids.removeValue(forKey: timer) { timeline.cancel(id) }
    }

    /// Forgets `timer` after it fired.
    mutating func fired(_ timer: HubTimer) {
        ids[timer] = nil
    }
}
