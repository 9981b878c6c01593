/// One scenario of `imock bench`.
protocol BenchScenario: Sendable {
    var name: BenchScenarioName { get }
    /// The servers it runs against: imock first, then the baselines `--compare` adds. Empty
    /// for a scenario that runs in this process (`catalogue`, `transport`, `store-cost`).
    var servers: [ServerKind] { get }
    /// Runs once against `server` (nil for an in-process scenario); one report per dialect.
    func run(on server: ServerKind?, _ context: ScenarioContext) async throws(BenchError) -> [ScenarioReport]
}

/// What a scenario run works with.
struct ScenarioContext: Sendable {
    var options: BenchConfiguration
    var launcher: ServerLauncher
    var client: ClientLoop

    /// The dialects to run session scenarios with.
    var wires: [any BenchWire.Type] {
        options.dialects.isEmpty ? BenchWires.all : options.dialects.compactMap { BenchWires.named($0) }
    }

    /// The dialects of ``wires`` that `kind` speaks (the Python baseline: imock JSON only).
    func wires(for kind: ServerKind) -> [any BenchWire.Type] {
        kind == .python ? wires.filter { $0.baselineSpeaks } : wires
    }

    /// The one dialect of `fleet` and `kick` (whose worlds are Easemob apps): the first of
    /// ``wires(for:)`` with Easemob's policies, else imock JSON.
    func easemobWire(for kind: ServerKind) -> any BenchWire.Type {
        wires(for: kind).first { $0.vendor == .easemob } ?? ImockJSONBenchWire.self
    }

    /// Starts `kind` with `world`, runs `body` against it and stops it, also when `body` throws.
    func with<T>(
        _ kind: ServerKind, world: BenchWorld, tls: Bool = false,
        _ body: (ServerUnderTest) async throws(BenchError) -> T
    ) async throws(BenchError) -> T {
        benchTrace("starting \(kind)")
        let server = try await launcher.start(kind, world: world, tls: tls)
        benchTrace("started \(kind)")
        do {
            let value = try await body(server)
            benchTrace("stopping \(kind)")
            await server.stop()
            benchTrace("stopped \(kind)")
            return value
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// Where the load comes from, as reports name it.
enum LoadSide {
    static let webSocket = "imock client: IMockNet WebSocketClient, one event-loop thread"
    static let http = "imock client: IMockNet Connection (HTTP/1.1 keep-alive), one event-loop thread"
    static let inProcess = "in process"
}

/// Every scenario, in run order.
enum BenchScenarios {
    static let all: [any BenchScenario] = [
        RestScenario(), LoginStormScenario(), FleetScenario(), KickScenario(), MessagesScenario(), CatalogueScenario(),
        TransportScenario(), StoreCostScenario(),
    ]

    static func scenario(_ name: BenchScenarioName) -> any BenchScenario {
        all.first { $0.name == name }!
    }
}
