import IMockCommon
import IMockNet

/// How the shell runs the state machine's timers.
public enum ClientTimerMode: Sendable {
    /// Event-loop timers on real (monotonic) time.
    case realTime
    /// Timers on a run's `Timeline` (the in-process server's, or a test's): moving that one clock
    /// fires the client's and the server's timers in deadline order. The timeline is also the
    /// client's clock. The keep-alive is deferrable (``ClientTimer/mayFireLate``).
    case shared(Timeline)

    /// The shared timeline, in that mode.
    var timeline: Timeline? {
        if case .shared(let timeline) = self { return timeline }
        return nil
    }
}

/// The pending timers of one client, loop-confined.
final class TimerTable {
    private struct Pending {
        var dueAtMs: Int64
        var loopTimer: LoopTimerID?
        var timelineTimer: Timeline.Timer?
    }

    private let mode: ClientTimerMode

    /// The table as a timeline action captures it (the client may be gone when it fires).
    private struct WeakTable {
        weak var table: TimerTable?
        init(_ table: TimerTable) { self.table = table }
    }
    private let loop: EventLoop
    private var pending: [ClientTimer: Pending] = [:]

    init(mode: ClientTimerMode, loop: EventLoop) {
        self.mode = mode
        self.loop = loop
    }

    /// Starts (or restarts) `timer`; `fire` runs on the loop when it is due (real time or the
    /// shared timeline).
    func schedule(_ timer: ClientTimer, afterMs: Int64, nowMs: Int64, fire: @escaping @Sendable (ClientTimer) -> Void) {
        cancel(timer)
        var entry = Pending(dueAtMs: nowMs.clampedAdding(max(afterMs, 0)))
        switch mode {
        case .realTime:
            entry.loopTimer = loop.scheduleTimer(after: .milliseconds(max(afterMs, 0))) { [weak self] in
                guard let self, self.pending.removeValue(forKey: timer) != nil else { return }
                fire(timer)
            }
        case .shared(let timeline):
            let table = LoopBound(WeakTable(self), on: loop)
            let loop = self.loop
            entry.timelineTimer = timeline.schedule(at: entry.dueAtMs, deferrable: timer.mayFireLate) {
                let run: @Sendable () -> Void = {
                    guard let self = table.value.table, self.pending.removeValue(forKey: timer) != nil else { return }
                    fire(timer)
                }
                if loop.inEventLoop { run() } else { loop.execute(run) }
            }
        }
        pending[timer] = entry
    }

    /// Stops `timer`.
    func cancel(_ timer: ClientTimer) {
        guard let entry = pending.removeValue(forKey: timer) else { return }
        if let id = entry.loopTimer { loop.cancelTimer(id) }
        if let id = entry.timelineTimer { mode.timeline?.cancel(id) }
    }

    /// Stops every timer.
    func cancelAll() {
        for timer in pending.keys { cancel(timer) }
    }

    /// The pending timers and their due times on the client's clock.
    var dueTimes: [ClientTimer: Int64] { pending.mapValues(\.dueAtMs) }
}

extension ClientTimer {
    /// Whether the timer may fire late after a jump of a shared timeline that holds deferrable
    /// timers (`Timeline.holdDeferrable()`): the keep-alive, whose ping is then sent once at the
    /// jump's end instead of every interval on the way.
    public var mayFireLate: Bool { self == .keepAlive }
}
