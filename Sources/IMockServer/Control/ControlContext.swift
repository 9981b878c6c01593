import IMockCommon
import IMockCore
import IMockNet

/// What a control-API handler works with — the domain, the clock, the live connections, the
/// event stream and the metrics — never the whole server. Handlers parse the request, run a
/// command on the domain, hand the outputs to ``perform(_:)`` and render the answer.
/// Loop-confined like everything it refers to.
struct ControlContext {
    /// The server's domain.
    let domain: LoopBound<Domain>
    /// The run's clock.
    let clock: Timeline
    /// The open session connections (faults on them, the journal).
    let sessions: SessionHub
    /// The `/_imock/events` subscribers.
    let events: StreamBroadcaster
    /// The counters behind `/_imock/metrics`.
    let metrics: MetricsRecorder
    /// The server's configuration (the random seed, …).
    let configuration: ServerConfiguration
    /// Open connections of every kind (HTTP and WebSocket).
    let connectionCount: () -> Int
    /// Moves the clock to a target (advance or set): the jump counts as activity on every
    /// connection, then the timeline fires what comes due.
    let moveClock: (Int64, () throws(VirtualClockError) -> Void) throws(VirtualClockError) -> Void

    /// The clock's time.
    var nowMs: Int64 { clock.nowMs }

    /// The apps, users and tokens.
    var directory: Directory { domain.value.directory }

    /// Carries out outputs for live sessions.
    func perform(_ outputs: [SessionOutput]) {
        sessions.perform(outputs)
    }

    /// Runs a domain command that may be refused; a refusal becomes the control API's 400/404.
    func run<T>(_ command: (inout Domain) throws(DomainError) -> T) throws(ControlError) -> T {
        do {
            return try command(&domain.value)
        } catch {
            throw ControlError(error)
        }
    }
}

extension ControlError {
    /// The control API's answer to a refused domain command.
    init(_ error: DomainError) {
        switch error {
        case .noSuchApp(let key): self = .notFound("no app \(key)")
        case .noSuchUser(let user, let key): self = .notFound("no user '\(user)' in \(key)")
        case .noLiveSession(let user, let resource, let key):
            self = .notFound("no live session of '\(user)'\(resource.map { " with resource '\($0)'" } ?? "") in \(key)")
        case .noStartState(let key):
            self = .notFound("app \(key) was not there at start-up, so it has no start state; POST /_imock/reset removes it")
        case .noCheckpoint(let name, let key): self = .notFound("app \(key) has no checkpoint '\(name)'")
        case .invalidSettings(let text): self = .badRequest(text)
        case .unloadableState(let seedError):
            self = ControlError(
                status: 500, error: "internal_error", description: "a saved state could not be loaded again: \(seedError)")
        }
    }
}
