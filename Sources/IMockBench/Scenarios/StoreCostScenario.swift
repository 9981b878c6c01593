import IMockServer

/// `store-cost`: what `--data` costs a REST registration — an in-memory server and one with a
/// store run alongside in alternating slices (StoreCostBenchmark, docs/PERSISTENCE.md).
struct StoreCostScenario: BenchScenario {
    let name = BenchScenarioName.storeCost
    let servers: [ServerKind] = []

    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport] {
        let report: StoreCostReport
        do {
            report = try await StoreCostBenchmark.run(connections: context.options.connections, duration: context.options.duration)
        } catch {
            throw BenchError("store-cost: \(error)")
        }
        func part(_ name: String, _ variant: StoreCostVariant) -> BenchPart {
            BenchPart(
                name: name,
                figures: [
                    .rate(variant.perSecond, "registrations"),
                    .latency(50, Double(variant.percentile(0.5)) / 1e6),
                    .latency(99, Double(variant.percentile(0.99)) / 1e6),
                ])
        }
        return [
            ScenarioReport(
                scenario: name.rawValue, server: "in-process",
                load: "IMockNet clients on a third event-loop thread, POST /bench/store/users",
                size: [("connections", report.connections)], parts: [part("memory", report.memory), part("data", report.data)])
        ]
    }
}
