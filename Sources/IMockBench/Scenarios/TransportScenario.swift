/// `transport`: the figures of the in-process transport benchmark (health requests, ping ops,
/// a raw TCP echo baseline on two event-loop threads; TransportBenchmark).
struct TransportScenario: BenchScenario {
    let name = BenchScenarioName.transport
    let servers: [ServerKind] = []

    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport] {
        let options = TransportOptions(connections: context.options.connections, duration: context.options.duration)
        let report = try await TransportBenchmark.run(options)
        let parts = [
            BenchPart(name: "echo", figures: [.rate(report.echoRoundTripsPerSecond, "round trips")]),
            BenchPart(
                name: "health",
                figures: [.rate(report.healthRequestsPerSecond, "requests"),
                          BenchFigure(key: "ratio", label: "÷ echo", value: report.healthRatio, better: .higher)]),
            BenchPart(
                name: "ping",
                figures: [.rate(report.webSocketRoundTripsPerSecond, "round trips"),
                          BenchFigure(key: "ratio", label: "÷ echo", value: report.webSocketRatio, better: .higher)]),
        ]
        return [
            ScenarioReport(
                scenario: name.rawValue, server: "in-process", load: "IMockNet clients on a second event-loop thread",
                size: [("connections", options.connections)], parts: parts)
        ]
    }
}
