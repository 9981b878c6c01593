import IMockCore
import IMockNet

/// The session engine's timers (token warnings and expiry) on the server's `Clock`.
///
/// Deadlines are epoch milliseconds of that clock. On the system clock one event-loop timer is
/// armed for the earliest deadline; a virtual clock fires nothing by itself: whoever moves it
/// calls `popDue(nowMs:)`. Loop-confined.
struct DomainTimers {
    private var schedule = TimerSchedule<TimerToken>()
    private var ids: [TimerToken: IMockCore.TimerID] = [:]

    var count: Int { schedule.count }
    var nextDeadline: Int64? { schedule.nextDeadline }

    mutating func add(_ token: TimerToken, atMs: Int64) {
        cancel(token)
        ids[token] = schedule.schedule(at: atMs, token)
    }

    mutating func cancel(_ token: TimerToken) {
        if let id = ids.removeValue(forKey: token) { schedule.cancel(id) }
    }

    /// The tokens due at `nowMs`, earliest first (ties in scheduling order).
    mutating func popDue(nowMs: Int64) -> [TimerToken] {
        schedule.popDue(nowMs: nowMs).map { due in
            ids.removeValue(forKey: due.payload)
            return due.payload
        }
    }
}
