import IMockCommon
import IMockCore

/// All coordination of virtual time in one place: the run's clock (through the ``ServerLink``:
/// in process the server's `Timeline`, which holds the reference devices' timers too), the
/// virtual timers of external adapters, and settling.
///
/// - ``advance(by:until:)`` moves time forward in deadline order: it stops at every timer on the
///   link's timeline (the reference devices' and, in process, the server's), at every other
///   moment the server will act (remotely: token warnings and expiries, fault ends) and at every
///   external adapter's timer (fired in order), so each event happens at its own time and sees
///   the effects of the earlier ones.
/// - ``settle()`` returns once everything the last action caused has happened: in-flight SDK
///   calls finished, connection attempts resolved, every device's pending frames handled (a ping
///   round trip per connection; TCP keeps order) and callbacks observed — repeated until no
///   device reports anything new.
final class ScenarioTime {
    let startMs: Int64
    private(set) var nowMs: Int64
    private let link: any ServerLink
    private let adapters: [any DeviceAdapter]
    private let observations: Observations
    private let apps: [ServerApp]
    private let tokenWarningPercent: Int
    /// Devices whose network holds frames (black hole, no pong …): not waited for.
    var impairedDevices: () -> Set<String> = { [] }
    /// SDK calls still running, awaited by ``settle()`` unless their device is impaired.
    var inFlight: [(device: String, what: String, task: Task<Void, Never>)] = []
    /// Fire every keep-alive ping in order (needed while a fault may swallow pongs); otherwise
    /// a ping overdue after a jump is sent once at its end (the server counts jumps as activity):
    /// the timeline holds the deferrable keep-alives (and the server's idle sweep) meanwhile
    /// (`Timeline.holdDeferrable()`).
    var exactHeartbeats = false
    /// Run after each settle round: true when it acted (the round is then not the quiet one).
    var afterRound: () async throws(ScenarioFailure) -> Bool = { false }
    /// Told of every clock move (for the timeline).
    var onMove: (Int64, Int64) -> Void = { _, _ in }
    /// The real-time bound of the current step's waits.
    var waitGuard = WaitGuard(limit: .seconds(10))

    init(
        startMs: Int64, link: any ServerLink, adapters: [any DeviceAdapter], observations: Observations,
        apps: [ServerApp], tokenWarningPercent: Int
    ) {
        self.startMs = startMs
        self.nowMs = startMs
        self.link = link
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
            if try await afterRound() { continue }
            if observations.count == before && inFlight.count == running.filter({ impaired.contains($0.device) }).count {
                return
            }
        }
        throw ScenarioFailure("the scenario never became quiet: callbacks kept coming after 50 settle rounds")
    }

    // MARK: Advance

    /// Moves time forward by `ms`, firing every timer on the way in deadline order. With
    /// `until`, stops as soon as it holds (checked after each event); returns whether it held
    /// (the keep-alives it passed then stay held: the next advance fires them).
    @discardableResult
    func advance(by ms: Int64, until condition: (() -> Bool)? = nil) async throws(ScenarioFailure) -> Bool {
        let target = nowMs + ms
        let timeline = link.deviceTimeline
        if exactHeartbeats {
            await link.onLoop { _ = timeline.releaseDeferred() }
        } else {
            timeline.holdDeferrable()
        }
        let serverStops = try await link.serverStops(
            after: nowMs, upTo: target, apps: apps, tokenWarningPercent: tokenWarningPercent)
        var iterations = 0
        while true {
            try await settle()
            if let condition, condition() { return true }
            iterations += 1
            guard iterations < 100_000 else { throw ScenarioFailure("time did not move on: 100000 timer firings") }
            let timers = await adapters.asyncFlatMap { await $0.pendingTimers() }
                .filter { exactHeartbeats || $0.name != "keepAlive" }
            let nextTimer = timers.min { ($0.dueMs, $0.device, $0.name) < ($1.dueMs, $1.device, $1.name) }
            let candidates = [
                nextTimer.map { max($0.dueMs, nowMs) }, serverStops.first { $0 > nowMs },
                timeline.nextDeadlineMs.map { max($0, nowMs) },
            ].compactMap { $0 }
            guard let next = candidates.min(), next <= target else { break }
            try await move(to: next)
            if let nextTimer, max(nextTimer.dueMs, nowMs) == next {
                for adapter in adapters { await adapter.fire(nextTimer) }
            }
        }
        try await move(to: target)
        try await settle()
        if !exactHeartbeats {
            let released = await link.onLoop { timeline.releaseDeferred() }
            let overdue = await adapters.asyncFlatMap { await $0.pendingTimers() }
                .filter { $0.name == "keepAlive" && $0.dueMs <= nowMs }
            for timer in overdue.sorted(by: { $0.device < $1.device }) {
                for adapter in adapters { await adapter.fire(timer) }
            }
            if released > 0 || !overdue.isEmpty { try await settle() }
        }
        return condition?() ?? true
    }

    /// Moves the clock (the server's timers, and in process the devices', fire then, so the
    /// callbacks they cause carry the new time), has the devices read what the move sent
    /// (``readServerFrames()``), then fires the device timers a remote move left due.
    private func move(to timeMs: Int64) async throws(ScenarioFailure) {
        let from = nowMs
        try await link.moveClock(to: timeMs)
        try await readServerFrames()
        await link.fireDeviceTimers()
        nowMs = max(nowMs, timeMs)
        if timeMs > from { onMove(from, timeMs) }
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
}

extension Array {
    func asyncFlatMap<T>(_ transform: (Element) async -> [T]) async -> [T] {
        var result: [T] = []
        for element in self { result += await transform(element) }
        return result
    }
}
