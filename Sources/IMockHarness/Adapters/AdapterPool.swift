import Synchronization

/// The external adapter processes of a run (docs/FIXTURES.md § Adapters): each is started at the
/// first fixture that needs it and handed on to the next fixture after a `reset`, so a run starts
/// an adapter — and learns that its command is broken — once, not once per fixture. At most one
/// process per adapter name is busy per running fixture (`--jobs`).
public final class AdapterPool: Sendable {
    private struct State {
        var idle: [String: [ProcessAdapter]] = [:]
        /// Adapters whose start failed, and why: not started again this run.
        var broken: [String: ScenarioFailure] = [:]
    }

    private let state = Mutex(State())

    /// An empty pool.
    public init() {}

    /// An idle process of adapter `name`, bound to the fixture's observations and clock, or a new
    /// one; throws at once when the adapter failed to start before.
    func acquire(
        name: String, command: [String], helloLimit: Duration, observations: Observations, clock: @escaping @Sendable () -> Int64
    ) async throws(ScenarioFailure) -> ProcessAdapter {
        if let failure = state.withLock({ $0.broken[name] }) { throw failure }
        if let adapter = state.withLock({ $0.idle[name]?.popLast() }) {
            adapter.bind(observations: observations, clock: clock)
            return adapter
        }
        do {
            return try await ProcessAdapter.start(
                name: name, command: command, helloLimit: helloLimit, observations: observations, clock: clock)
        } catch {
            let failure = ScenarioFailure.infrastructure(error.message + " (not started again this run)", device: error.device)
            state.withLock { $0.broken[name] = failure }
            throw error
        }
    }

    /// Takes `adapter` back after a fixture: reset for the next one, or closed when it cannot be
    /// reset (it lacks `reset`, refused it or ended).
    func release(_ adapter: ProcessAdapter) async {
        if await adapter.reset() {
            state.withLock { $0.idle[adapter.name, default: []].append(adapter) }
        } else {
            await adapter.close()
        }
    }

    /// Ends every idle process (the run is over).
    public func closeAll() async {
        let all = state.withLock { state -> [ProcessAdapter] in
            defer { state.idle = [:] }
            return state.idle.values.flatMap { $0 }
        }
        for adapter in all { await adapter.close() }
    }
}
