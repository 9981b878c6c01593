import IMockBench
import Testing

/// The `--data` figure of `imock bench`: REST registration latency with a store against in memory.
@Suite("imock bench: the cost of --data")
struct StoreCostBenchTests {
    @Test("a short run measures both variants and prints the p50/p99 difference")
    func smoke() async throws {
        let report = try await StoreCostBenchmark.run(connections: 2, duration: .milliseconds(200))
        #expect(!report.memory.latencies.isEmpty && !report.data.latencies.isEmpty)
        #expect(report.memory.latencies == report.memory.latencies.sorted())
        #expect(report.memory.perSecond > 0 && report.data.perSecond > 0)
        let lines = report.lines
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("REST registration (POST /bench/store/users, 2 connections, in memory and --data alongside, 0.2 s each, "))
        #expect(lines[1].hasPrefix("  in memory: ") && lines[2].hasPrefix("  --data (SQLite WAL, group commit per loop turn): "))
        #expect(lines[3].hasPrefix("--data adds ") && lines[3].hasSuffix(" ms at p50"))
    }

    @Test("percentiles by nearest rank, milliseconds with two decimals and a sign")
    func rendering() {
        let variant = StoreCostVariant(name: "x", latencies: (1...100).map { Int64($0) * 1_000_000 }, seconds: 2)
        #expect(variant.percentile(0.5) == 50_000_000)
        #expect(variant.percentile(0.99) == 99_000_000)
        #expect(variant.perSecond == 50)
        #expect(StoreCostVariant(name: "y", latencies: [], seconds: 0).percentile(0.99) == 0)
        let faster = StoreCostVariant(name: "in memory", latencies: [1_000_000, 2_004_999], seconds: 1)
        let slower = StoreCostVariant(name: "--data", latencies: [1_250_000, 2_500_000], seconds: 1)
        let report = StoreCostReport(connections: 1, duration: .seconds(2), memory: faster, data: slower)
        #expect(report.lines[1] == "  in memory: 2 registrations/s, p50 1.00 ms, p99 2.00 ms, max 2.00 ms")
        #expect(report.lines[2] == "  --data: 2 registrations/s, p50 1.25 ms, p99 2.50 ms, max 2.50 ms")
        #expect(report.lines[3] == "--data adds +0.50 ms at p99, +0.25 ms at p50")
        let reversed = StoreCostReport(connections: 1, duration: .seconds(2), memory: slower, data: faster)
        #expect(reversed.lines[3] == "--data adds -0.50 ms at p99, -0.25 ms at p50")
        #expect(report.lines[0].contains(", 1 connection, in memory and --data alongside, 2 s each, "))
    }
}
