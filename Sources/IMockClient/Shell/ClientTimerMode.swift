import IMockNet

/// How the shell runs the state machine's timers.
public enum ClientTimerMode: Sendable, Equatable {
    /// Event-loop timers on real (monotonic) time.
    case realTime
    /// Timers are only recorded with their due time on the client's clock; the owner fires them
    /// with ``IMClient/fireTimer(_:)`` (deterministic tests on a virtual clock).
    case manual
}

/// The pending timers of one client, loop-confined.
final class TimerTable {
    private struct Pending {
        var dueAtMs: Int64
        var loopTimer: LoopTimerID?
    }

    private let mode: ClientTimerMode
    private let loop: EventLoop
    private var pending: [ClientTimer: Pending] = [:]

    init(mode: ClientTimerMode, loop: EventLoop) {
        self.mode = mode
        self.loop = loop
    }

    /// Starts (or restarts) `timer`; `fire` runs on the loop when it is due (real time only).
    func schedule(_ timer: ClientTimer, afterMs: Int64, nowMs: Int64, fire: @escaping (ClientTimer) -> Void) {
        cancel(timer)
        var entry = Pending(dueAtMs: nowMs &+ max(afterMs, 0), loopTimer: nil)
        if mode == .realTime {
            let id = loop.scheduleTimer(after: .milliseconds(max(afterMs, 0))) { [weak self] in
                guard let self, self.pending.removeValue(forKey: timer) != nil else { return }
                fire(timer)
            }
            entry.loopTimer = id
        }
        pending[timer] = entry
    }

    /// Stops `timer`.
    func cancel(_ timer: ClientTimer) {
        guard let entry = pending.removeValue(forKey: timer) else { return }
        if let id = entry.loopTimer { loop.cancelTimer(id) }
    }

    /// Stops every timer.
    func cancelAll() {
        for timer in pending.keys { cancel(timer) }
    }

    /// The pending timers and their due times on the client's clock.
    var dueTimes: [ClientTimer: Int64] { pending.mapValues(\.dueAtMs) }

    /// Removes `timer` for a manual firing; false when it is not pending.
    func take(_ timer: ClientTimer) -> Bool {
        guard pending[timer] != nil else { return false }
        cancel(timer)
        return true
    }
}
