import IMockCommon
import Synchronization
import Testing

@testable import IMockCore

/// A wall clock the test moves by hand.
private final class ManualWall: Sendable {
    let time: Mutex<Int64>
    init(_ nowMs: Int64) { time = Mutex(nowMs) }
    func set(_ nowMs: Int64) { time.withLock { $0 = nowMs } }
    var read: @Sendable () -> Int64 { { [self] in time.withLock { $0 } } }
}

/// What fired, in order, with the clock's time when it fired.
final class Firings: Sendable {
    let list = Mutex<[(String, Int64)]>([])
    func record(_ name: String, _ timeline: Timeline) -> @Sendable () -> Void {
        { [self] in list.withLock { $0.append((name, timeline.nowMs)) } }
    }
    var names: [String] { list.withLock { $0.map(\.0) } }
    var times: [Int64] { list.withLock { $0.map(\.1) } }
}

@Suite("Timeline: the run's one clock and timer list")
struct TimelineTests {
    @Test("flowing: follows the wall clock, advance and set shift it forward")
    func flowing() throws {
        let wall = ManualWall(1_000)
        let timeline = Timeline(mode: .system, wallClock: wall.read)
        #expect(timeline.nowMs == 1_000)
        wall.set(1_500)
        #expect(timeline.nowMs == 1_500)
        try timeline.advance(by: 3_600_000)
        #expect(timeline.nowMs == 3_601_500)
        wall.set(1_600)
        #expect(timeline.nowMs == 3_601_600)
        try timeline.set(to: 5_000_000)
        #expect(timeline.nowMs == 5_000_000)
    }

    @Test("virtual: stands still until told, resume flows on from where it stands")
    func frozen() throws {
        let wall = ManualWall(10_000)
        let timeline = Timeline(mode: .virtual, wallClock: wall.read)
        wall.set(20_000)
        #expect(timeline.nowMs == 10_000 && timeline.isFrozen)
        try timeline.advance(by: 500)
        #expect(timeline.nowMs == 10_500)
        timeline.resume()
        #expect(timeline.nowMs == 10_500 && !timeline.isFrozen)
        wall.set(21_000)
        #expect(timeline.nowMs == 11_500)
        timeline.freeze()
        wall.set(99_000)
        #expect(timeline.nowMs == 11_500)
        #expect(Timeline(mode: .virtual, startMs: 42).nowMs == 42)
    }

    @Test("never moves backwards nor past 9999-12-31; a refused move changes nothing")
    func refusals() throws {
        let timeline = Timeline(mode: .virtual, startMs: 1_000)
        #expect(throws: VirtualClockError.negativeAdvance(-1)) { try timeline.advance(by: -1) }
        #expect(throws: VirtualClockError.movesBackwards(fromMs: 1_000, toMs: 999)) { try timeline.set(to: 999) }
        #expect(throws: VirtualClockError.beyondMaximum(ValueLimits.maximumEpochMs)) { try timeline.advance(by: .max) }
        #expect(throws: VirtualClockError.beyondMaximum(ValueLimits.maximumEpochMs)) {
            try timeline.set(to: ValueLimits.maximumEpochMs + 1)
        }
        #expect(timeline.nowMs == 1_000)
        try timeline.set(to: ValueLimits.maximumEpochMs)
        #expect(timeline.nowMs == ValueLimits.maximumEpochMs)
    }

    @Test("an advance steps through due timers in deadline order, each at its deadline, ties in scheduling order")
    func steppingOrder() throws {
        let timeline = Timeline(mode: .virtual, startMs: 0)
        let firings = Firings()
        timeline.schedule(at: 300, firings.record("c", timeline))
        timeline.schedule(at: 100, firings.record("a1", timeline))
        timeline.schedule(at: 200, firings.record("b", timeline))
        timeline.schedule(at: 100, firings.record("a2", timeline))
        let late = timeline.schedule(at: 400, firings.record("d", timeline))
        try timeline.advance(by: 99)
        #expect(firings.names.isEmpty)
        try timeline.advance(by: 251)
        #expect(firings.names == ["a1", "a2", "b", "c"])
        #expect(firings.times == [100, 100, 200, 300])
        #expect(timeline.nowMs == 350)
        timeline.cancel(late)
        try timeline.advance(by: 1_000)
        #expect(firings.names.count == 4 && timeline.nextDeadlineMs == nil)
    }

    @Test("a timer an action schedules inside the jump fires in the same jump, in order")
    func nestedScheduling() throws {
        let timeline = Timeline(mode: .virtual, startMs: 0)
        let firings = Firings()
        timeline.schedule(at: 100) {
            firings.record("first", timeline)()
            timeline.schedule(at: 150, firings.record("scheduled by first", timeline))
        }
        timeline.schedule(at: 200, firings.record("second", timeline))
        try timeline.advance(by: 1_000)
        #expect(firings.names == ["first", "scheduled by first", "second"])
        #expect(firings.times == [100, 150, 200])
    }

    @Test("fireDue fires what is due now, also timers scheduled in the past")
    func fireDue() {
        let timeline = Timeline(mode: .virtual, startMs: 500)
        let firings = Firings()
        timeline.schedule(at: 400, firings.record("past", timeline))
        timeline.schedule(at: 600, firings.record("future", timeline))
        timeline.fireDue()
        #expect(firings.names == ["past"])
        #expect(timeline.nextDeadlineMs == 600)
    }

    @Test("observers hear of new deadlines and of the clock's moves")
    func observers() throws {
        let timeline = Timeline(mode: .virtual, startMs: 0)
        let calls = Mutex(0)
        timeline.onDeadlinesChanged { calls.withLock { $0 += 1 } }
        timeline.schedule(at: 10) {}
        try timeline.advance(by: 5)
        timeline.resume()
        #expect(calls.withLock { $0 } == 3)
    }

    @Test("the system clock is epoch milliseconds")
    func systemClockIsEpochMilliseconds() {
        // 2020-01-01 .. 2100-01-01: a wrong unit (s, µs) falls outside.
        #expect((1_577_836_800_000..<4_102_444_800_000).contains(SystemClock().nowMs))
        #expect((1_577_836_800_000..<4_102_444_800_000).contains(Timeline.wallClockMs()))
    }
}
