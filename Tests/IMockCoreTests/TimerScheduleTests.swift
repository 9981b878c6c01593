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

    @Test("cancelled timers far in the future do not pile up, and the rest still fire in order")
    func cancelledTimersAreDropped() {
        var schedule = TimerSchedule<Int>()
        var kept: [(id: TimerID, deadline: Int64)] = []
        for index in 0..<10_000 {
            // A week ahead, like a session's token timers; nine in ten cancelled.
            let deadline = Int64(604_800_000 + (index * 7919) % 1000)
            let id = schedule.schedule(at: deadline, index)
            if index % 10 == 0 { kept.append((id, deadline)) } else { schedule.cancel(id) }
            #expect(schedule.storedCount <= 2 * schedule.count + 65)
        }
        #expect(schedule.count == 1000)
        let expected = kept.sorted { $0.deadline != $1.deadline ? $0.deadline < $1.deadline : $0.id < $1.id }.map(\.id)
        #expect(schedule.popDue(nowMs: .max).map(\.id) == expected)
        #expect(schedule.isEmpty && schedule.storedCount == 0)
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

