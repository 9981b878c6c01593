import IMockHarness
import IMockNet

/// `catalogue`: the whole fixture catalogue replayed as `imock run` replays it (in process,
/// on the virtual clock, `imock run`'s defaults), timed on the wall clock.
struct CatalogueScenario: BenchScenario {
    let name = BenchScenarioName.catalogue
    let servers: [ServerKind] = []

    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport] {
        let load = "IMockHarness ConformanceRun.runAll, the reference adapter, in process"
        let files: [String]
        do {
            files = try FixtureLoader.files([context.options.fixtures])
        } catch {
            return [.skipped(name.rawValue, server: "in-process", load: load, reason: "no fixture catalogue: \(error)")]
        }
        let (fixtures, errors) = FixtureLoader.load(files)
        guard errors.isEmpty else { throw BenchError("catalogue: \(errors.count) invalid fixtures, first: \(errors[0])") }
        var configuration = RunConfiguration()
        configuration.paths = [context.options.fixtures]
        let started = ContinuousClock.now
        let results = await ConformanceRun.runAll(fixtures, configuration: configuration, output: { _ in })
        let wall = ContinuousClock.now - started
        let failed = results.filter { $0.outcome.isFailure }.count
        let part = BenchPart(
            name: "run",
            figures: [
                BenchFigure(key: "wallMs", label: "wall ms", value: Double(wall.nanoseconds) / 1e6, better: .lower),
                .count("fixtures", results.count), .count("failed", failed), .count("jobs", configuration.jobs),
            ],
            notes: failed > 0 ? ["\(failed) fixtures failed"] : [])
        return [ScenarioReport(scenario: name.rawValue, server: "in-process", load: load, size: [("fixtures", results.count)], parts: [part])]
    }
}
