import IMockCommon
import IMockCore

/// What a hub timer is for.
enum HubTimer: Hashable, Sendable {
    /// A session-engine timer (token warning or expiry).
    case engine(TimerToken)
    /// The idle check of a `/ws` connection.
    case idle(ConnectionID)
    /// The end of a control-API fault's `durationMs`.
    case faultExpiry(FaultID)
}

/// The hub's timers on the server's `Clock`: deadlines are epoch milliseconds of that clock,
/// so they follow it when it is frozen, advanced or set. Whoever moves the clock (or the loop
/// timer armed for `nextDeadline` while it flows) calls `popDue(nowMs:)`.
struct DomainTimers {
    private var schedule = TimerSchedule<HubTimer>()
    private var ids: [HubTimer: IMockCore.TimerID] = [:]

    var count: Int { schedule.count }
    var nextDeadline: Int64? { schedule.nextDeadline }

    mutating func add(_ timer: HubTimer, atMs: Int64) {
        cancel(timer)
        ids[timer] = schedule.schedule(at: atMs, timer)
    }

    mutating func cancel(_ timer: HubTimer) {
        if let id = ids.removeValue(forKey: timer) { schedule.cancel(id) }
    }

    /// The timers due at `nowMs`, earliest first (ties in scheduling order).
    mutating func popDue(nowMs: Int64) -> [HubTimer] {
        schedule.popDue(nowMs: nowMs).map { due in
            ids.removeValue(forKey: due.payload)
            return due.payload
        }
    }
}
