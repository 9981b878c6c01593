import IMockCore

/// How a scenario ended.
public enum ScenarioOutcome: String, Sendable {
    /// Every expectation held.
    case passed
    /// An expectation diverged, a step's answer was wrong, or a wait hung.
    case failed
    /// Failed, and the fixture is marked as an expected failure (with its reason).
    case expectedFailure
    /// Marked as an expected failure but passed: the mark must go (counts as a failure).
    case unexpectedPass
    /// Not run: the adapter cannot do what the fixture needs.
    case skipped

    /// Whether it makes the run fail.
    public var isFailure: Bool { self == .failed || self == .unexpectedPass }
}

/// One entry of a scenario's timeline, in the order things happened.
public enum TimelineEvent: Sendable {
    /// A step began (index in `steps`, its JSON path and a summary).
    case step(index: Int, path: String, summary: String, device: String?, atMs: Int64)
    /// A device callback.
    case callback(ObservedCallback)
    /// A frame or close the server sent to a device (its sent-journal).
    case server(device: String?, resource: String?, summary: String, atMs: Int64)
    /// A call from the app server or the test to the server (REST, control API), or a fault.
    case request(summary: String, status: Int, atMs: Int64, isFault: Bool)
    /// The virtual clock jumped.
    case clock(fromMs: Int64, toMs: Int64)
    /// An expectation was checked.
    case check(index: Int, summary: String, passed: Bool, atMs: Int64)
}

/// Where and how a scenario first diverged.
public struct Divergence: Sendable {
    /// The step (index in `steps`) and its JSON path.
    public var stepIndex: Int
    /// The step's JSON path (`steps[4]`).
    public var stepPath: String
    /// The step in words.
    public var stepSummary: String
    /// The failure.
    public var failure: ScenarioFailure
    /// The virtual time of the divergence, epoch ms.
    public var atMs: Int64
}

/// The result of one fixture.
public struct ScenarioResult: Sendable {
    /// The fixture file.
    public var file: String
    /// Its title.
    public var name: String
    /// The rules it covers.
    public var rules: [RuleReference]
    /// Its devices, in fixture order (the diagram's lifelines).
    public var devices: [String]
    /// How it ended.
    public var outcome: ScenarioOutcome
    /// Why it was skipped, or the expected-failure reason.
    public var note: String?
    /// Where it first diverged, when it failed.
    public var divergence: Divergence?
    /// What happened, in order.
    public var timeline: [TimelineEvent]
    /// The virtual start, epoch ms.
    public var startMs: Int64
    /// Virtual time covered, ms.
    public var virtualMs: Int64
    /// Wall time taken, ms.
    public var wallMs: Int64
}
