import IMockBench
import Testing

@Suite("imock bench: transport")
struct TransportBenchTests {
    @Test("a short in-process run reports positive figures and ratios")
    func smoke() async throws {
        let report = try await TransportBenchmark.run(TransportOptions(connections: 2, duration: .milliseconds(200)))
        #expect(report.connections == 2)
        #expect(report.duration == .milliseconds(200))
        #expect(report.echoRoundTripsPerSecond > 0)
        #expect(report.healthRequestsPerSecond > 0)
        #expect(report.webSocketRoundTripsPerSecond > 0)
        #expect(report.healthRatio > 0 && report.webSocketRatio > 0)
    }
}
