import Synchronization

/// Why a scenario stopped: an expectation diverged, a step's answer was wrong, a wait hung, or
/// the harness could not do what a step asked.
public struct ScenarioFailure: Error, Sendable {
    /// What went wrong, in a sentence a person can act on.
    public var message: String
    /// What the fixture expected, one line each (for the divergence report).
    public var expected: [String]
    /// What was observed instead, one line each.
    public var observed: [String]
    /// The device the divergence is about.
    public var device: String?
    /// True when the harness itself could not work — the server did not answer, refused its
    /// own control calls, an adapter would not start or refused a command — rather than a
    /// behaviour diverging: never an expected failure.
    public var isInfrastructure: Bool

    /// Creates a failure.
    public init(
        _ message: String, expected: [String] = [], observed: [String] = [], device: String? = nil, isInfrastructure: Bool = false
    ) {
        self.message = message
        self.expected = expected
        self.observed = observed
        self.device = device
        self.isInfrastructure = isInfrastructure
    }

    /// A failure of the harness's infrastructure (``isInfrastructure``).
    public static func infrastructure(_ message: String, device: String? = nil) -> ScenarioFailure {
        ScenarioFailure(message, device: device, isInfrastructure: true)
    }
}

/// A bound on a wait in real (wall-clock) time: a guard against a hang, reported as a failure
/// naming what was awaited, never a timing assertion.
public struct WaitGuard: Sendable {
    /// The real-time bound of one step.
    public var limit: Duration
    let deadline: ContinuousClock.Instant

    /// A guard expiring `limit` from now.
    public init(limit: Duration) {
        self.limit = limit
        deadline = .now + limit
    }

    /// Real time left.
    var remaining: Duration { max(deadline - .now, .zero) }

    /// Awaits `body`; throws a failure naming `what` when the bound passes first. A body that
    /// never ends is abandoned (not awaited), so a hung adapter cannot hang the run.
    func run<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async -> T) async throws(ScenarioFailure) -> T {
        let remaining = self.remaining
        let result: T? = await withCheckedContinuation { continuation in
            let first = OnceFlag()
            let finish = { @Sendable (value: T?) in
                if first.claim() { continuation.resume(returning: value) }
            }
            let work = Task { finish(await body()) }
            Task {
                try? await Task.sleep(for: remaining)
                finish(nil)
                work.cancel()
            }
        }
        guard let result else { throw hang(what) }
        return result
    }

    /// The failure of a wait that did not end.
    func hang(_ what: String) -> ScenarioFailure {
        ScenarioFailure("hang: waited \(limit) of real time for \(what)")
    }
}

/// True for the first ``claim()`` only.
final class OnceFlag: Sendable {
    private let taken = Atomic<Bool>(false)

    func claim() -> Bool { !taken.exchange(true, ordering: .acquiringAndReleasing) }
}
