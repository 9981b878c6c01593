import IMockCore

/// All coordination of virtual time in one place: the server's virtual clock (through the
/// control API), the clock of the virtual-clock devices, their timers, and settling.
///
/// - ``advance(by:until:)`` moves time forward in deadline order: it stops at every device timer
///   (fired in order) and at every moment the server will act (token warnings and expiries,
///   fault ends), so each event happens at its own time and sees the effects of the earlier ones.
/// - ``settle()`` returns once everything the last action caused has happened: in-flight SDK
///   calls finished, connection attempts resolved, every device's pending frames handled (a ping
///   round trip per connection; TCP keeps order) and callbacks observed — repeated until no
///   device reports anything new.
///
/// Re-basing it on one shared scheduler means replacing ``moveServer(to:)``, ``serverStops(upTo:)``
/// and the device timer queries; the runner only calls `nowMs`, `advance` and `settle`.
final class ScenarioTime {
    let startMs: Int64
    private(set) var nowMs: Int64
    private let link: ServerLink
    private let clock: ScenarioClock
    private let adapters: [any DeviceAdapter]
    private let observations: Observations
    private let apps: [ServerApp]
    private let tokenWarningPercent: Int
    /// Devices whose network holds frames (black hole, no pong …): not waited for.
    var impairedDevices: () -> Set<String> = { [] }
    /// SDK calls still running, awaited by ``settle()`` unless their device is impaired.
    var inFlight: [(device: String, what: String, task: Task<Void, Never>)] = []
    /// Fire every keep-alive ping in order (needed while a fault may swallow pongs); otherwise
    /// a ping overdue after a jump is sent once at its end (the server counts jumps as activity).
    var exactHeartbeats = false
    /// Told of every clock move (for the timeline).
    var onMove: (Int64, Int64) -> Void = { _, _ in }
    /// The real-time bound of the current step's waits.
    var waitGuard = WaitGuard(limit: .seconds(10))

    init(
        startMs: Int64, link: ServerLink, clock: ScenarioClock, adapters: [any DeviceAdapter], observations: Observations,
        apps: [ServerApp], tokenWarningPercent: Int
    ) {
        self.startMs = startMs
        self.nowMs = startMs
        self.link = link
        self.clock = clock
        self.adapters = adapters
        self.observations = observations
        self.apps = apps
        self.tokenWarningPercent = tokenWarningPercent
    }

    /// Whether some device keeps its own real-time timers.
    var hasRealTimeDevices: Bool { adapters.contains { $0.clock == .realTime } }

    // MARK: Settle

    /// Waits until the scenario is quiet (see the type's description).
    func settle() async throws(ScenarioFailure) {
        try await readServerFrames()
        for _ in 0..<50 {
            let before = observations.count
            let impaired = impairedDevices()
            let running = inFlight
            inFlight = []
            for call in running {
                if impaired.contains(call.device) {
                    inFlight.append(call)
                    continue
                }
                let task = call.task
                try await waitGuard.run("device \(call.device): \(call.what) to complete") { await task.value }
            }
            for adapter in adapters { try await adapter.settle(skipping: impaired, guard: waitGuard) }
            if observations.count == before && inFlight.count == running.filter({ impaired.contains($0.device) }).count {
                return
            }
        }
        throw ScenarioFailure("the scenario never became quiet: callbacks kept coming after 50 settle rounds")
    }

    // MARK: Advance

    /// Moves time forward by `ms`, firing every timer on the way in deadline order. With
    /// `until`, stops as soon as it holds (checked after each event); returns whether it held.
    @discardableResult
    func advance(by ms: Int64, until condition: (() -> Bool)? = nil) async throws(ScenarioFailure) -> Bool {
        let target = nowMs + ms
        let serverStops = try await serverStops(upTo: target)
        var iterations = 0
        while true {
            try await settle()
            if let condition, condition() { return true }
            iterations += 1
            guard iterations < 100_000 else { throw ScenarioFailure("time did not move on: 100000 timer firings") }
            let timers = await adapters.asyncFlatMap { await $0.pendingTimers() }
                .filter { exactHeartbeats || $0.name != "keepAlive" }
            let nextTimer = timers.min { ($0.dueMs, $0.device, $0.name) < ($1.dueMs, $1.device, $1.name) }
            let nextStop = serverStops.first { $0 > nowMs }
            let candidates = [nextTimer.map { max($0.dueMs, nowMs) }, nextStop].compactMap { $0 }
            guard let next = candidates.min(), next <= target else { break }
            try await moveServer(to: next)
            if let nextTimer, max(nextTimer.dueMs, nowMs) == next {
                for adapter in adapters { await adapter.fire(nextTimer) }
            }
        }
        try await moveServer(to: target)
        try await settle()
        if !exactHeartbeats {
            let overdue = await adapters.asyncFlatMap { await $0.pendingTimers() }
                .filter { $0.name == "keepAlive" && $0.dueMs <= nowMs }
            for timer in overdue.sorted(by: { $0.device < $1.device }) {
                for adapter in adapters { await adapter.fire(timer) }
            }
            if !overdue.isEmpty { try await settle() }
        }
        return condition?() ?? true
    }

    /// Sets the device clock, then moves the server's clock (its due timers fire then, so the
    /// callbacks they cause carry the new time) and has the devices read what the move sent
    /// (``readServerFrames()``) before a device timer fires.
    private func moveServer(to timeMs: Int64) async throws(ScenarioFailure) {
        guard timeMs > nowMs else { return }
        let from = nowMs
        clock.set(timeMs)
        try await link.control("POST", "clock/advance", ["ms": .int(timeMs - nowMs)])
        try await readServerFrames()
        nowMs = timeMs
        onMove(from, timeMs)
    }

    /// Has the devices read every frame the server sent before now, before anything else is sent
    /// to it. The server writes what a request caused (a clock move's token warning, a control
    /// call's kick or expiry) at the end of the loop turn that answered it, possibly after the
    /// answer; the answer of a later request (`GET clock`) comes after those frames, and
    /// ``ServerLink/drain()`` then has the devices read them. Else a settle ping could go out
    /// first, and over msync the unsolicited UNREAD answer (token warning or expiry) was taken
    /// for that ping's answer: its callbacks came one answer late (#24 defect 7).
    private func readServerFrames() async throws(ScenarioFailure) {
        try await link.control("GET", "clock")
        await link.drain()
    }

    /// The moments after now and up to `target` when the server will act: each live token's
    /// warning (at the configured share of its life, and an msync session's a second after it)
    /// and expiry, each fault's end.
    private func serverStops(upTo target: Int64) async throws(ScenarioFailure) -> [Int64] {
        var stops: Set<Int64> = []
        for app in apps {
            let path = "apps/\(app.path)/tokens?state=live"
            let listing = try await link.control("GET", path)
            for token in listing["tokens"]?.arrayValue ?? [] {
                guard let issued = token["issuedAtMs"]?.intValue, let expires = token["expiresAtMs"]?.intValue else { continue }
                // The warning, and an msync session's, a heartbeat's delay later.
                for delay in [0, LoginRequest.heartbeatWarningDelayMs] {
                    stops.insert(
                        SessionEngine.tokenWarningDeadline(
                            issuedAtMs: issued, expiresAtMs: expires, percent: tokenWarningPercent, delayMs: delay))
                }
                stops.insert(expires)
            }
            let faults = try await link.control("GET", "faults?app=\(app.query)")
            for fault in faults["faults"]?.arrayValue ?? [] {
                if let ends = fault["expiresAtMs"]?.intValue { stops.insert(ends) }
            }
        }
        return stops.filter { $0 > nowMs && $0 <= target }.sorted()
    }
}

extension Array {
    func asyncFlatMap<T>(_ transform: (Element) async -> [T]) async -> [T] {
        var result: [T] = []
        for element in self { result += await transform(element) }
        return result
    }
}
