import IMockClient
import IMockCore

/// A rule of the documents as a check over a run: pure, from a program and its trace to the
/// first violation, if any.
public struct ExploreProperty: Sendable {
    /// A short name (`no-reconnect-after-session-end`); `--unknown` takes it or a rule id.
    public var id: String
    /// The `CONFORMANCE.md` rules it checks.
    public var rules: [String]
    /// What must hold, in a sentence.
    public var summary: String
    /// The profiles it applies to.
    public var profiles: Set<SDKProfile>
    /// The first violation in a trace of a program.
    public var check: @Sendable (ExploreTrace, ExploreProgram) -> ExploreViolation?

    /// The rules with the seed sections they come from (for a fixture's `rules`).
    public var ruleReferences: [RuleReference] {
        rules.compactMap { id in RuleCatalogue.rule(id).map { RuleReference(id: id, source: $0.source) } }
    }

    /// Whether `--unknown` entries name it (by id or by one of its rules).
    public func isNamed(by names: Set<String>) -> Bool {
        names.contains(id) || rules.contains { names.contains($0) }
    }
}

/// Where and how a trace broke a property, and an expectation that shows it in a fixture.
public struct ExploreViolation: Sendable, Equatable {
    /// The device it is about.
    public var device: String
    /// What happened, in a sentence.
    public var message: String
    /// The operation during which it showed.
    public var operation: Int
    /// The check that fails on this trace and holds where the rule is kept.
    public var witness: Witness

    /// A fixture expectation, placed after the operation where the violation showed.
    public enum Witness: Sendable, Equatable {
        /// `absent` of a callback pattern in the window since operation `since` began.
        case absent(pattern: String, since: Int)
        /// `sequence` on the device, without gaps, since operation `since` began.
        case sequence(patterns: [String], since: Int)
        /// `order` of two callbacks since the start.
        case order(first: String, then: String)
        /// `state`: the device is connected.
        case connected
        /// `state`: the device is not connected.
        case notConnected
    }

    /// Creates a violation.
    public init(device: String, message: String, operation: Int, witness: Witness) {
        self.device = device
        self.message = message
        self.operation = operation
        self.witness = witness
    }

    /// The witness as a fixture step (labels: `since` operations carry `explore-since`).
    func expectation() -> JSONValue {
        switch witness {
        case .absent(let pattern, _):
            return ["expect": "absent", "since": "explore-since", "callbacks": [.string(pattern)]]
        case .sequence(let patterns, _):
            return ["expect": "sequence", "device": .string(device), "since": "explore-since", "gaps": false, "callbacks": .array(patterns.map { .string($0) })]
        case .order(let first, let then):
            return ["expect": "order", "since": "start", "callbacks": [.string(first), .string(then)]]
        case .connected:
            return ["expect": "state", "device": .string(device), "connected": true]
        case .notConnected:
            return ["expect": "state", "device": .string(device), "connected": false]
        }
    }

    /// The operation whose start the witness's window begins at, if it has one.
    var since: Int? {
        switch witness {
        case .absent(_, let since), .sequence(_, let since): return since
        case .order, .connected, .notConnected: return nil
        }
    }
}

extension ObservedCallback {
    /// A pattern for the fixture that matches this callback again in another run: its name and
    /// the arguments that do not change from run to run (states, events, codes, texts).
    var stablePattern: String { "\(device): " + stableCall }

    /// ``stablePattern`` without the device (for a `sequence`).
    var stableCall: String {
        let stable = arguments.filter { ["state", "event", "code", "errorCode", "text"].contains($0.name) }
        let args = stable.map { "\($0.name): \($0.value.encodedString)" }.joined(separator: ", ")
        return name + (stable.isEmpty ? "" : "(\(args))")
    }
}
