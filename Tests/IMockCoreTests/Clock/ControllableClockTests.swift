import Testing
@testable import IMockCore

/// A base clock the test moves by hand, standing in for the wall clock.
private final class ManualBase: Clock, @unchecked Sendable {
    var nowMs: Int64
    init(_ nowMs: Int64) { self.nowMs = nowMs }
}

@Suite("Controllable clock")
struct ControllableClockTests {
    @Test("flowing: follows the base, advance and set shift it forward")
    func flowing() throws {
        let base = ManualBase(1_000)
        var clock = ControllableClock(base: base)
        #expect(clock.nowMs == 1_000)
        base.nowMs = 1_500
        #expect(clock.nowMs == 1_500)
        try clock.advance(by: 3_600_000)
        #expect(clock.nowMs == 3_601_500)
        base.nowMs = 1_600
        #expect(clock.nowMs == 3_601_600)
        try clock.set(to: 5_000_000)
        #expect(clock.nowMs == 5_000_000)
    }

    @Test("frozen: stands still until told, resume flows on from where it stands")
    func frozen() throws {
        let base = ManualBase(10_000)
        var clock = ControllableClock(base: base, frozen: true)
        base.nowMs = 20_000
        #expect(clock.nowMs == 10_000)
        try clock.advance(by: 500)
        #expect(clock.nowMs == 10_500)
        clock.resume()
        #expect(clock.nowMs == 10_500)
        base.nowMs = 21_000
        #expect(clock.nowMs == 11_500)
        clock.freeze()
        base.nowMs = 99_000
        #expect(clock.nowMs == 11_500)
    }

    @Test("never moves backwards; a refused move changes nothing")
    func backwards() throws {
        var clock = ControllableClock(base: ManualBase(1_000), frozen: true)
        #expect(throws: VirtualClockError.negativeAdvance(-1)) { try clock.advance(by: -1) }
        #expect(throws: VirtualClockError.movesBackwards(fromMs: 1_000, toMs: 999)) { try clock.set(to: 999) }
        #expect(throws: VirtualClockError.beyondMaximum(ValueLimits.maximumEpochMs)) { try clock.advance(by: .max) }
        #expect(throws: VirtualClockError.beyondMaximum(ValueLimits.maximumEpochMs)) {
            try clock.set(to: ValueLimits.maximumEpochMs + 1)
        }
        #expect(clock.nowMs == 1_000)
        try clock.set(to: ValueLimits.maximumEpochMs)
        #expect(clock.nowMs == ValueLimits.maximumEpochMs)
    }
}
