import IMockCommon
import IMockServer
import Testing

@Suite("imock bench")
struct BenchTests {
    @Test("a short in-process run reports positive figures and ratios, one line each")
    func smoke() async throws {
        let report = try await Benchmark.run(BenchOptions(connections: 2, duration: .milliseconds(200)))
        #expect(report.connections == 2)
        #expect(report.duration == .milliseconds(200))
        #expect(report.echoRoundTripsPerSecond > 0)
        #expect(report.healthRequestsPerSecond > 0)
        #expect(report.webSocketRoundTripsPerSecond > 0)
        #expect(report.healthRatio > 0 && report.webSocketRatio > 0)
        let lines = report.lines
        #expect(lines.count == 6)
        #expect(lines.first?.hasPrefix("imock bench: 2 connections per figure, 0.2 s each") == true)
        #expect(lines.dropFirst().first?.hasSuffix(" round trips/s") == true)
    }

    @Test("figures are printed rounded, grouped by thousands, with units, and ratios with two decimals")
    func rendering() {
        let report = BenchReport(
            connections: 1, duration: .seconds(2), echoRoundTripsPerSecond: 40_000.4,
            healthRequestsPerSecond: 1_234_567.5, webSocketRoundTripsPerSecond: 999.49)
        let lines = report.lines
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("imock bench: 1 connection per figure, 2 s each, "))
        #expect(lines[1] == "TCP echo baseline (IMockNet Connection, 64-byte messages): 40,000 round trips/s")
        #expect(lines[2] == "HTTP GET /_imock/health (keep-alive): 1,234,568 requests/s")
        #expect(lines[3] == "WebSocket ping op on /ws: 999 round trips/s")
        #expect(lines[4] == "HTTP / baseline ratio: 30.86")
        #expect(lines[5] == "WebSocket / baseline ratio: 0.02")
    }

    @Test("options: defaults, values, and bad usage naming the option")
    func options() throws {
        #expect(try BenchOptions.parse([]) == BenchOptions(connections: 16, duration: .seconds(2)))
        #expect(try BenchOptions.parse(["--connections", "3", "--seconds=0.5"])
            == BenchOptions(connections: 3, duration: .milliseconds(500)))
        #expect(throws: UsageError("option --connections must be an integer in 1...10000, got '10001'")) {
            try BenchOptions.parse(["--connections", "10001"])
        }
        #expect(throws: UsageError("option --seconds needs a value")) { try BenchOptions.parse(["--seconds"]) }
        #expect(throws: UsageError("unknown option '--port'")) { try BenchOptions.parse(["--port", "1"]) }
    }
}
