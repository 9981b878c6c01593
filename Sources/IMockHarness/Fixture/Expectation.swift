import IMockCore

/// A check placed between steps. It looks at the callbacks observed in its *window*: since the
/// previous group of expectations (consecutive expectations share one window), or since a
/// labelled step (`since`), or since the start. `within` lets it wait on the virtual clock.
public struct Expectation: Sendable {
    /// What is checked.
    public var kind: ExpectationKind
    /// Where the window starts: nil: after the previous expectation group; `"start"`; a step label.
    public var since: String?
    /// How long it may wait on the virtual clock for the callbacks (nil: they must be there now).
    public var withinMs: Int64?
}

/// The kinds of expectation.
public enum ExpectationKind: Sendable {
    /// These callbacks on one device, in this order. `gaps`: other callbacks of the device may
    /// come between them; `complete`: the device had no other callback in the window.
    case sequence(device: String, callbacks: [CallbackPattern], gaps: Bool, complete: Bool)
    /// All of these, in any order (devices may differ).
    case unordered([CallbackPattern])
    /// Cross-device happens-before: the first match of each pattern comes in this order, by the
    /// global sequence every callback carries.
    case order([CallbackPattern])
    /// None of these within `forMs` of virtual time from now (the clock moves that far; the
    /// window then starts now unless `since` says otherwise), or in the window when `forMs` is nil.
    case absent([CallbackPattern], forMs: Int64?)
    /// The synchronous state of a device (O5), and the devices the server lists for its user.
    case state(StateCheck)
    /// What the server sent (its journal), as a recording's export asserts it (docs/RECORD.md).
    case sent(SentCheck)
}

/// A state check of one device.
public struct StateCheck: Sendable {
    /// The device.
    public var device: String
    /// `isLoggedIn` (E1).
    public var loggedIn: Bool?
    /// `isConnected` (E1, C2).
    public var connected: Bool?
    /// `.some(nil)` checks that no user is current.
    public var currentUser: String??
    /// `Logout`, `Logging`, `Logged` (O5).
    public var loginStatus: String?
    /// The fixture devices the server lists for the device's user, earliest login first.
    public var devices: [String]?
}

/// A callback to look for: device, vendor name, argument matchers, optional virtual time.
public struct CallbackPattern: Sendable {
    /// The device (fixture name).
    public var device: String
    /// The vendor callback name, exactly.
    public var name: String
    /// Matchers of named arguments; arguments not listed are not checked.
    public var arguments: [(name: String, matcher: ValueMatcher)]
    /// The virtual time since the scenario start the callback must carry (ms), when given.
    public var at: ValueMatcher?

    /// `device: name(arg: matcher, …)`.
    public var summary: String {
        let args = arguments.map { "\($0.name): \($0.matcher.summary)" }.joined(separator: ", ")
        return "\(device): \(name)" + (arguments.isEmpty ? "" : "(\(args))") + (at.map { " " + Self.timeSummary($0) } ?? "")
    }

    /// An `at` matcher as virtual time since the start, in the timeline's form: `at +47m`,
    /// `between +47m and +49m`, `at or after +47m`, `at or before +49m`.
    static func timeSummary(_ at: ValueMatcher) -> String {
        let time = { (ms: Double) in "+" + DurationText.format(Int64(ms)) }
        switch at {
        case .exact(let value): return value.intValue.map { "at " + time(Double($0)) } ?? "at \(at.summary)"
        case .range(let minimum?, let maximum?): return "between \(time(minimum)) and \(time(maximum))"
        case .range(let minimum?, nil): return "at or after \(time(minimum))"
        case .range(nil, let maximum?): return "at or before \(time(maximum))"
        default: return "at \(at.summary)"
        }
    }
}
