import IMockCommon
import Testing
import IMockServer

@Suite("Control API: --seed-random")
struct FaultOptionsTests {
    @Test("--seed-random takes an unsigned 64-bit integer and does not clash with --seed")
    func seedRandom() throws {
        #expect(try ServeOptions.parse(["--seed-random", "18446744073709551615"]).faultSeed == UInt64.max)
        #expect(try ServeOptions.parse([]).faultSeed == nil)
        #expect(throws: UsageError.self) { try ServeOptions.parse(["--seed-random", "-1"]) }
        #expect(throws: UsageError.self) { try ServeOptions.parse(["--seed-random", "x"]) }
    }
}
