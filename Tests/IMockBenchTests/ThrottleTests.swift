import Testing
@testable import IMockBench

/// `Throttle`: at most `window` jobs under way, every job started once, completion at the end.
@Suite("Throttle")
struct ThrottleTests {
    @Test("jobs that end at once (connects failing with no descriptors left) start the next without recursing")
    func synchronousEnds() {
        var started: [Int] = []
        var completed = false
        let throttle = Throttle(total: 200_000, window: 200) { index, done in
            started.append(index)
            done()
        }
        throttle.start { completed = true }
        #expect(completed)
        #expect(started == Array(0..<200_000))
    }

    @Test("no more than the window is under way; each end starts one more")
    func window() {
        var pending: [() -> Void] = []
        var completed = false
        var mostUnderWay = 0
        let throttle = Throttle(total: 10, window: 3) { _, done in
            pending.append(done)
            mostUnderWay = max(mostUnderWay, pending.count)
        }
        throttle.start { completed = true }
        #expect(pending.count == 3)
        while !pending.isEmpty {
            let done = pending.removeFirst()
            done()
            done()  // a second report is ignored
        }
        #expect(completed)
        #expect(mostUnderWay == 3)
    }
}
