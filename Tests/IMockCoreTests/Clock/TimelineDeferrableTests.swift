import IMockCommon
import Testing

@Suite("Timeline: deferrable timers and moves that fire nothing")
struct TimelineDeferrableTests {
    @Test("not held, a deferrable timer fires at its deadline like any other")
    func notHeld() throws {
        let timeline = Timeline(mode: .virtual, startMs: 0)
        let fired = Firings()
        timeline.schedule(at: 10, deferrable: true, fired.record("ping", timeline))
        timeline.schedule(at: 20, fired.record("expiry", timeline))
        try timeline.advance(by: 30)
        #expect(fired.names == ["ping", "expiry"] && fired.times == [10, 20])
    }

    @Test("held, deferrable timers wait past their deadline and fire once released, at the time it stands, earliest first")
    func held() throws {
        let timeline = Timeline(mode: .virtual, startMs: 0)
        let fired = Firings()
        timeline.holdDeferrable()
        timeline.schedule(at: 15, deferrable: true, fired.record("ping-b", timeline))
        timeline.schedule(at: 10, deferrable: true, fired.record("ping-a", timeline))
        timeline.schedule(at: 20, fired.record("expiry", timeline))
        #expect(timeline.nextDeadlineMs == 20)
        try timeline.advance(by: 30)
        #expect(fired.names == ["expiry"] && fired.times == [20])
        #expect(timeline.nextDeadlineMs == nil)
        timeline.fireDue()
        #expect(fired.names == ["expiry"] && fired.times == [20])
        #expect(timeline.releaseDeferred() == 2)
        #expect(fired.names == ["expiry", "ping-a", "ping-b"] && fired.times == [20, 30, 30])
        #expect(timeline.releaseDeferred() == 0)
    }

    @Test("a held timer that is cancelled never fires")
    func cancelHeld() throws {
        let timeline = Timeline(mode: .virtual, startMs: 0)
        let fired = Firings()
        timeline.holdDeferrable()
        let ping = timeline.schedule(at: 10, deferrable: true, fired.record("ping", timeline))
        try timeline.advance(by: 30)
        timeline.cancel(ping)
        #expect(timeline.releaseDeferred() == 0)
        #expect(fired.names.isEmpty)
    }

    @Test("stand(at:) moves without firing; fireDue then fires what came due, in deadline order")
    func stand() throws {
        let timeline = Timeline(mode: .virtual, startMs: 0)
        let fired = Firings()
        for (name, deadline) in [("b", Int64(20)), ("a", 10)] { timeline.schedule(at: deadline, fired.record(name, timeline)) }
        try timeline.stand(at: 20)
        #expect(timeline.nowMs == 20 && fired.names.isEmpty)
        timeline.fireDue()
        #expect(fired.names == ["a", "b"] && fired.times == [20, 20])
        #expect(throws: VirtualClockError.movesBackwards(fromMs: 20, toMs: 5)) { try timeline.stand(at: 5) }
        #expect(throws: VirtualClockError.beyondMaximum(Timeline.maximumMs)) { try timeline.stand(at: Timeline.maximumMs + 1) }
    }
}
