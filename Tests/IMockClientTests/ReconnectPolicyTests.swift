import IMockCommon
import Testing
import IMockCore
@testable import IMockClient

@Suite("Reconnect back-off (C2, C9, O6, O7, Z2)")
struct ReconnectPolicyTests {
    @Test(
        "Easemob bands: 1–2 s to attempt 5, 3–6 s to 19, 5–10 s after",
        arguments: [(1, 1000, 1999), (5, 1000, 1999), (6, 3000, 5999), (19, 3000, 5999), (20, 5000, 9999), (500, 5000, 9999)])
    func easemob(attempt: Int, low: Int64, high: Int64) {
        #expect(ReconnectPolicy.easemob.delayMs(attempt: attempt, unit: 0) == low)
        #expect(ReconnectPolicy.easemob.delayMs(attempt: attempt, unit: 0.9999) == high)
    }

    @Test("OpenIM cycles 1, 2, 4, 8, 16 s")
    func openIM() {
        let delays = (1...7).map { ReconnectPolicy.openIM.delayMs(attempt: $0, unit: 0.5) }
        #expect(delays == [1000, 2000, 4000, 8000, 16000, 1000, 2000])
    }

    @Test("the seeded jitter repeats and stays in 0..<1")
    func seeded() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        let first = (0..<100).map { _ in a.nextUnit() }
        #expect(first == (0..<100).map { _ in b.nextUnit() })
        #expect(first.allSatisfy { $0 >= 0 && $0 < 1 })
        #expect(Set(first).count == 100)
    }
}
