import IMockClient
import IMockCore

/// What a run of a program showed, in the order it happened: the steps as they began, the
/// devices' callbacks (each with what it means in any profile) and what the server sent each
/// device (its journal). The properties read only this.
public struct ExploreTrace: Sendable {
    /// One thing that happened.
    public enum Event: Sendable {
        /// Operation `index` of the program began.
        case operation(Int)
        /// A callback of a device, and its meaning.
        case callback(ObservedCallback, LinkEvent)
        /// A frame or close the server sent a device: `op` (`kicked`, `login.ok`, `closed` …) and its code.
        case server(device: String, op: String, code: Int?, atMs: Int64)
    }

    /// The events in order.
    public var events: [Event]
    /// How many operations ran to their end (all, unless a step was refused and the run stopped).
    public var completedOperations: Int
    /// Why the run stopped early, if it did.
    public var stoppedBecause: String?
    /// Whether it stopped because the server refused a generated call whose target was gone
    /// (a kick or REST call answered 404, no token for a deleted or banned user): the program,
    /// not the client; ``Explorer`` drops that operation and runs the program again.
    public var stoppedOnMissingTarget = false
    /// The reference clients' wire dialect in the run.
    public var transport: ClientTransport = .imockJSON
    /// The adapter command the run was skipped for (`adapter X does not support renewToken (…)`):
    /// ``Explorer`` leaves out the operations that need it and runs the program again.
    public var unsupportedCommand: String?

    /// A trace of `events`.
    public init(events: [Event], completedOperations: Int) {
        self.events = events
        self.completedOperations = completedOperations
    }

    /// The trace of a run's result for `program`: its timeline read back, steps mapped to operations
    /// (the checks the fixture adds after operations are skipped).
    public init(result: ScenarioResult, program: ExploreProgram, operationOfStep: [Int: Int]) {
        var events: [Event] = []
        for event in result.timeline {
            switch event {
            case .step(let index, _, _, _, _):
                if let operation = operationOfStep[index] { events.append(.operation(operation)) }
            case .callback(let callback):
                var callback = callback
                // A callback during a check the fixture adds belongs to the operation before it.
                callback.stepIndex = operationOfStep[callback.stepIndex] ?? max(0, program.operations.count - 1)
                events.append(.callback(callback, LinkEvent(callback, profile: program.profile)))
            case .server(let device?, _, let summary, let atMs):
                let (op, code) = Self.parse(summary)
                events.append(.server(device: device, op: op, code: code, atMs: atMs))
            default:
                continue
            }
        }
        self.events = events
        let stopped = result.divergence.flatMap { operationOfStep[$0.stepIndex] }
        completedOperations = stopped ?? program.operations.count
        stoppedBecause = result.divergence.map { "\($0.stepPath) \($0.stepSummary): \($0.failure.message)" }
        if result.outcome == .skipped {
            completedOperations = 0
            stoppedBecause = "skipped: \(result.note ?? "")"
            unsupportedCommand = result.note.flatMap { note in
                note.split(separator: " ").drop { $0 != "support" }.dropFirst().first.map(String.init)
            }
        }
        if let message = result.divergence?.failure.message, stopped != nil {
            stoppedOnMissingTarget = message.contains("answered 404, expected 200") || message.hasPrefix("no token for")
        }
    }

    /// `kicked code=217 by=…` → (`kicked`, 217); `close 4217` → (`closed`, 4217).
    static func parse(_ summary: String) -> (op: String, code: Int?) {
        let words = summary.split(separator: " ")
        guard let first = words.first else { return ("?", nil) }
        if first == "close" { return ("closed", words.dropFirst().first.flatMap { Int($0) }) }
        let code = words.first { $0.hasPrefix("code=") }.flatMap { Int($0.dropFirst(5)) }
        return (String(first), code)
    }

    /// The callbacks of `device`, in order.
    public func callbacks(of device: String) -> [(callback: ObservedCallback, meaning: LinkEvent)] {
        events.compactMap { event in
            guard case .callback(let callback, let meaning) = event, callback.device == device else { return nil }
            return (callback, meaning)
        }
    }
}

/// What a callback means for the connection, in any profile (docs/CLIENT.md § Profiles).
public enum LinkEvent: Sendable, Equatable {
    /// The login completed without error.
    case loginSucceeded
    /// The login completed with an error (or was aborted).
    case loginFailed
    /// Connected (first time or again).
    case connected
    /// The connection dropped, or an automatic attempt is under way or failed; still logged in.
    case lost
    /// The session ended: kicked, removed, banned, token expired or invalid, reconnect gave up.
    case sessionEnded(tokenExpired: Bool)
    /// A logout completed and the user is logged out.
    case loggedOut
    /// The token's warning.
    case tokenWillExpire
    /// A renewal succeeded.
    case renewed
    /// A message arrived.
    case message(id: String, from: String, text: String)
    /// Anything else (database, data sync, a send's completion …).
    case other

    /// The meaning of `callback` in `profile`.
    public init(_ callback: ObservedCallback, profile: SDKProfile) {
        let error = callback.argument("error") ?? callback.argument("errorCode")
        let failed = error.map { !($0.isNull || $0.intValue == 0) } ?? false
        switch (profile, callback.name) {
        case (_, "messagesDidReceive"), (_, "onRecvNewMessage"), (_, "receivePeerMessage"):
            self = .message(
                id: callback.argument("messageId")?.stringValue ?? "", from: callback.argument("from")?.stringValue ?? "",
                text: callback.argument("text")?.stringValue ?? "")
        case (.easemob, "connectionStateDidChange"):
            self = callback.argument("state")?.stringValue == "connected" ? .connected : .lost
        case (.easemob, "loginCompletion"), (.zim, "loginCallback"): self = failed ? .loginFailed : .loginSucceeded
        case (.openim, "loginSuccess"): self = .loginSucceeded
        case (.openim, "loginFailure"): self = .loginFailed
        case (.easemob, "userAccountDidLoginFromOtherDevice"), (.easemob, "userAccountDidRemoveFromServer"),
            (.easemob, "userDidForbidByServer"), (.easemob, "userAccountDidForcedToLogout"), (.openim, "onKickedOffline"),
            (.openim, "onUserTokenInvalid"):
            self = .sessionEnded(tokenExpired: false)
        case (.easemob, "tokenDidExpire"), (.openim, "onUserTokenExpired"): self = .sessionEnded(tokenExpired: true)
        case (.easemob, "logoutCompletion"), (.zim, "logoutCallback"): self = failed ? .other : .loggedOut
        case (.openim, "logoutSuccess"): self = .loggedOut
        case (.easemob, "tokenWillExpire"), (.zim, "onTokenWillExpire"): self = .tokenWillExpire
        case (.easemob, "renewTokenCompletion"), (.zim, "renewTokenCallback"): self = failed ? .other : .renewed
        case (.openim, "renewTokenSuccess"): self = .renewed
        case (.openim, "onConnectSuccess"): self = .connected
        case (.openim, "onConnecting"), (.openim, "onConnectFailure"): self = .lost
        case (.zim, "connectionStateChanged"): self = Self.zim(state: callback.argument("state")?.stringValue, event: callback.argument("event")?.stringValue)
        default: self = .other
        }
    }

    private static func zim(state: String?, event: String?) -> LinkEvent {
        switch (state, event) {
        case ("Connected", _): return .connected
        case ("Reconnecting", _): return .lost
        case ("Disconnected", "TokenExpired"): return .sessionEnded(tokenExpired: true)
        case ("Disconnected", "KickedOut"), ("Disconnected", "LoginInterrupted"): return .sessionEnded(tokenExpired: false)
        case ("Disconnected", "ActiveLogin"), ("Disconnected", "LoginTimeout"): return .loginFailed
        default: return .other
        }
    }
}
