import IMockCommon
import Testing

@testable import IMockCore

@Suite struct TimerScheduleTests {
    @Test func dueTimersComeInDeadlineOrderThenSchedulingOrder() {
        var schedule = TimerSchedule<String>()
        schedule.schedule(at: 300, "c")
        schedule.schedule(at: 100, "a1")
        schedule.schedule(at: 200, "b")
        schedule.schedule(at: 100, "a2")
        schedule.schedule(at: 400, "d")
        #expect(schedule.nextDeadline == 100)
        #expect(schedule.popDue(nowMs: 99).isEmpty)
        #expect(schedule.popDue(nowMs: 300).map(\.payload) == ["a1", "a2", "b", "c"])
        #expect(schedule.nextDeadline == 400)
        #expect(schedule.count == 1)
    }

    @Test func cancelledTimersNeverFire() {
        var schedule = TimerSchedule<Int>()
        let first = schedule.schedule(at: 10, 1)
        let second = schedule.schedule(at: 20, 2)
        let cancelled = schedule.cancel(first)
        let cancelledTwice = schedule.cancel(first)
        #expect(cancelled && !cancelledTwice)
        #expect(schedule.nextDeadline == 20)
        #expect(schedule.isPending(second))
        #expect(schedule.popDue(nowMs: 100).map(\.id) == [second])
        let cancelledAfterFiring = schedule.cancel(second)
        #expect(!cancelledAfterFiring)
        #expect(schedule.isEmpty)
        #expect(schedule.nextDeadline == nil)
    }

    @Test func manyTimersStayOrdered() {
        var schedule = TimerSchedule<Int>()
        // Deterministic pseudo-random deadlines with many ties.
        var seed: UInt64 = 42
        var expected: [(Int64, Int)] = []
        for index in 0..<500 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let deadline = Int64(seed >> 33) % 50
            schedule.schedule(at: deadline, index)
            expected.append((deadline, index))
        }
        expected.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        #expect(schedule.popDue(nowMs: 1_000).map(\.payload) == expected.map(\.1))
    }
}

