import IMockClient
import IMockCore

/// The properties about sessions: how they start, end and come back.
enum SessionProperties {
    /// C9, C6: a device whose session ended never connects again by itself. Two readings. A
    /// device that *reported* its session over (its kick or expiry callback) must not report
    /// `connected` before a login of the app's own succeeds. And when the server ended (a kick, a
    /// token error, a refused login, a close `4000 + code`) the session of a device that was
    /// connected, and the first thing the device reports after it is a drop (it took the end for a
    /// network loss), it must not come back connected before the app logs it in again; left out
    /// there: ends sent to a device not connected in its own view (the end may be on a socket it
    /// already left, after a cut or a pong timeout) and ends sent while its user has a black hole
    /// (it may never get them).
    static let noReconnectAfterSessionEnd = ExploreProperty(
        id: "no-reconnect-after-session-end", rules: ["C9", "C6"],
        summary: "a device whose session ended (its own kick or expiry callback; or kicked, token.expired, login.error, close 4000+code from the server) never reconnects by itself",
        profiles: Set(SDKProfile.allCases)
    ) { trace, program in
        enum Watch { case ended(Int, String), dropped(Int, String) }
        var watching: [String: Watch] = [:]
        var connected: Set<String> = []
        var reported: [String: (Int, ObservedCallback)] = [:]
        return trace.firstViolation(in: program) { event, scan in
            switch event {
            case .operation:
                return nil
            case .server(let device, let op, let code, _):
                let closing = op == "closed" && (code.map { (4000..<5000).contains($0) } ?? false)
                guard closing || ["kicked", "token.expired", "login.error"].contains(op), watching[device] == nil,
                    connected.contains(device), !scan.holds(device)
                else { return nil }
                watching[device] = .ended(scan.operation, op + (code.map { " \($0)" } ?? ""))
                return nil
            case .callback(let callback, let meaning):
                switch meaning {
                case .connected: connected.insert(callback.device)
                case .lost, .sessionEnded, .loggedOut, .loginFailed: connected.remove(callback.device)
                default: break
                }
                // The device's own word: after it reported its session over, only a login of the app's brings it back.
                switch meaning {
                case .sessionEnded: reported[callback.device] = (scan.operation, callback)
                case .loginSucceeded: reported[callback.device] = nil
                case .connected:
                    guard let (operation, end) = reported[callback.device] else { break }
                    return ExploreViolation(
                        device: callback.device,
                        message: "\(callback.device) reported its session over (#\(end.sequence) \(end.summary)) and then connected again by itself (#\(callback.sequence) \(callback.summary))",
                        operation: scan.operation, witness: .absent(pattern: callback.stablePattern, since: operation))
                default: break
                }
                guard let watch = watching[callback.device] else { return nil }
                switch (watch, meaning) {
                case (.ended(let operation, let what), .lost): watching[callback.device] = .dropped(operation, what)
                case (.dropped(let operation, let what), .connected):
                    return ExploreViolation(
                        device: callback.device,
                        message: "\(callback.device) took the server's end of its session (\(what), operation \(operation)) for a drop and connected again by itself (#\(callback.sequence) \(callback.summary))",
                        operation: scan.operation, witness: .absent(pattern: callback.stablePattern, since: operation))
                case (.ended, .connected), (_, .sessionEnded), (_, .loggedOut), (_, .loginSucceeded):
                    // The end was handled, or a login of the app's own started a new session.
                    watching[callback.device] = nil
                default:
                    break  // a refused login call does not end the watch: the device is still logged in
                }
                return nil
            }
        }
    }

    /// C2: a device whose connection dropped reconnects by itself once the network is back:
    /// after the closing quiet period no device is left disconnected but logged in.
    static let droppedDeviceReconnects = ExploreProperty(
        id: "dropped-device-reconnects", rules: ["C2"],
        summary: "a device that lost its connection (not ended by the server) is connected again after the network is back",
        profiles: Set(SDKProfile.allCases)
    ) { trace, program in
        guard trace.completedOperations == program.operations.count, endsQuiet(program) else { return nil }
        for device in program.devices {
            let last = trace.callbacks(of: device.name).last { callback in
                switch callback.meaning {
                case .connected, .lost, .sessionEnded, .loggedOut, .loginFailed, .loginSucceeded: return true
                default: return false
                }
            }
            guard let last, last.meaning == .lost else { continue }
            return ExploreViolation(
                device: device.name,
                message: "\(device.name) lost its connection (#\(last.callback.sequence) \(last.callback.summary)) and was still not connected after the network came back and two minutes passed",
                operation: program.operations.count - 1, witness: .connected)
        }
        return nil
    }

    /// Whether a program ends with every network fault lifted and at least a minute of quiet.
    static func endsQuiet(_ program: ExploreProgram) -> Bool {
        var faulted: Set<String> = []
        for operation in program.operations {
            if case .network(let kind, let device) = operation {
                if kind == .restore { faulted.remove(device) } else { faulted.insert(device) }
            }
        }
        guard faulted.isEmpty, case .advance(let ms)? = program.operations.last else { return false }
        return ms >= 60_000
    }

    /// E3, C1 (O3, Z1): a successful login completion is followed on its device by `connected`.
    static let loginThenConnected = ExploreProperty(
        id: "login-then-connected", rules: ["E3", "C1"],
        summary: "a login that completes without error is followed at once, on its device, by connected",
        profiles: Set(SDKProfile.allCases)
    ) { trace, program in
        var pending: [String: ObservedCallback] = [:]
        for event in trace.events {
            guard case .callback(let callback, let meaning) = event else { continue }
            if meaning == .loginSucceeded {
                pending[callback.device] = pending[callback.device] ?? callback
                continue
            }
            guard let login = pending.removeValue(forKey: callback.device), meaning != .connected else { continue }
            return ExploreViolation(
                device: callback.device,
                message: "\(callback.device)'s login completed (#\(login.sequence) \(login.summary)) but the next callback was #\(callback.sequence) \(callback.summary), not connected",
                operation: callback.stepIndex,
                witness: .sequence(patterns: [login.stableCall, connectedCall(program.profile)], since: login.stepIndex))
        }
        return nil
    }

    /// The `connected` callback of a profile, as a pattern.
    static func connectedCall(_ profile: SDKProfile) -> String {
        switch profile {
        case .easemob: return "connectionStateDidChange(state: \"connected\")"
        case .openim: return "onConnectSuccess"
        case .zim: return "connectionStateChanged(state: \"Connected\")"
        }
    }

    /// E8, O8: after a logout completed, a device reports nothing that its own calls did not cause.
    static let quietAfterLogout = ExploreProperty(
        id: "no-callback-after-logout", rules: ["E8", "O8"],
        summary: "after a completed logout, a device has no callback until the app calls it again",
        profiles: Set(SDKProfile.allCases)
    ) { trace, program in
        var loggedOut: [String: Int] = [:]
        var current = 0
        for event in trace.events {
            switch event {
            case .operation(let index):
                current = index
                if program.operations[index].startsLogin, let device = program.operations[index].device { loggedOut[device] = nil }
            case .callback(let callback, let meaning):
                if meaning == .loggedOut {
                    loggedOut[callback.device] = current
                    continue
                }
                guard let since = loggedOut[callback.device], !program.operations[current].isCall(on: callback.device) else { continue }
                return ExploreViolation(
                    device: callback.device,
                    message: "\(callback.device) logged out (operation \(since)) but then reported #\(callback.sequence) \(callback.summary) during operation \(current), which did not call it",
                    operation: current, witness: .absent(pattern: callback.stablePattern, since: since + 1))
            case .server:
                continue
            }
        }
        return nil
    }
}

/// The users whose connections a black hole holds, operation by operation: a device's network
/// faults are made on its user while it has no session (docs/FIXTURES.md § Network), so a black
/// hole on one device may hold its user's other devices. What the server sends them meanwhile
/// may never reach them, and what reaches them when the network comes back is stale (a held
/// `login.ok` before the kick that followed it): the operation that lifts it still counts.
struct Blackholes {
    private var users: Set<String> = []
    private var lifting: Set<String> = []

    mutating func apply(_ operation: ExploreOperation, _ program: ExploreProgram) {
        users.subtract(lifting)
        lifting = []
        guard case .network(let kind, let device) = operation, let user = program.device(device)?.user else { return }
        if kind == .blackhole { users.insert(user) } else if users.contains(user) { lifting.insert(user) }
    }

    func holds(_ device: String, _ program: ExploreProgram) -> Bool {
        program.device(device).map { users.contains($0.user) } ?? false
    }
}

/// Where a scan of a trace is: the operation under way, and the black holes holding devices.
struct TraceScan {
    let program: ExploreProgram
    private(set) var operation = 0
    private var blackholes = Blackholes()

    init(program: ExploreProgram) { self.program = program }

    /// Whether a black hole holds `device` (or its lifting releases stale frames to it) now.
    func holds(_ device: String) -> Bool { blackholes.holds(device, program) }

    mutating func enter(_ index: Int) {
        operation = index
        blackholes.apply(program.operations[index], program)
    }
}

extension ExploreTrace {
    /// The first violation `body` finds, given each event in order and where the scan is.
    func firstViolation(in program: ExploreProgram, _ body: (Event, TraceScan) -> ExploreViolation?) -> ExploreViolation? {
        var scan = TraceScan(program: program)
        for event in events {
            if case .operation(let index) = event { scan.enter(index) }
            if let violation = body(event, scan) { return violation }
        }
        return nil
    }
}

extension ExploreOperation {
    /// Whether it is an SDK call on `device`.
    func isCall(on device: String) -> Bool { commandName != nil && self.device == device }
}
