import IMockCommon

/// The domain's timer queue: deadlines in epoch milliseconds of a ``Clock``, independent of
/// any real clock. The owner pops due timers after the clock moves.
public typealias TimerSchedule<Payload> = DeadlineQueue<Int64, Payload>

/// Identifies one scheduled timer.
public typealias TimerID = IMockCommon.TimerID

extension DeadlineQueue where Deadline == Int64 {
    /// Removes and returns every timer due at `nowMs` (epoch milliseconds), in firing order.
    public mutating func popDue(nowMs: Int64) -> [(id: TimerID, payload: Payload)] {
        popDue(now: nowMs)
    }
}
