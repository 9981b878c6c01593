import IMockClient
import IMockCore

/// A connected device kicked with code X ends its session with the callback its profile's kick
/// table gives X (docs/CLIENT.md § Kicks and token errors): one property per profile, each
/// citing that vendor's rules.
enum KickTableProperty {
    static let easemob = property(
        .easemob, id: "kick-callback-matches-code", rules: ["C6", "E13"],
        table: "206/220 → userAccountDidLoginFromOtherDevice, 207 → userAccountDidRemoveFromServer, 305 → userDidForbidByServer, 108 → tokenDidExpire, others → userAccountDidForcedToLogout(code: X)")
    static let openim = property(
        .openim, id: "kick-callback-matches-code-openim", rules: ["O7", "O6"],
        table: "104 → onUserTokenInvalid, 108 → onUserTokenExpired, others → onKickedOffline; over OpenIM's gateway every kick is its push 2002 → onKickedOffline")
    static let zim = property(
        .zim, id: "kick-callback-matches-code-zim", rules: ["Z3", "Z4"],
        table: "108 → connectionStateChanged(Disconnected, TokenExpired), others → (Disconnected, KickedOut)")

    /// The callback that ends a session kicked with `code` in `profile`: its name and the
    /// arguments it must carry. OpenIM's gateway has one kick, its push 2002, whatever the code
    /// (docs/CLIENT.md § Transports).
    static func expected(_ code: Int, profile: SDKProfile, transport: ClientTransport) -> (name: String, arguments: [(String, JSONValue)]) {
        switch (profile, transport == .openIM ? 2002 : code) {
        case (.easemob, 206), (.easemob, 220): return ("userAccountDidLoginFromOtherDevice", [])
        case (.easemob, 207): return ("userAccountDidRemoveFromServer", [])
        case (.easemob, 305): return ("userDidForbidByServer", [])
        case (.easemob, 108): return ("tokenDidExpire", [])
        case (.easemob, _): return ("userAccountDidForcedToLogout", [("code", .int(Int64(code)))])
        case (.openim, 104): return ("onUserTokenInvalid", [])
        case (.openim, 108): return ("onUserTokenExpired", [])
        case (.openim, _): return ("onKickedOffline", [])
        case (.zim, 108): return ("connectionStateChanged", [("state", "Disconnected"), ("event", "TokenExpired")])
        case (.zim, _): return ("connectionStateChanged", [("state", "Disconnected"), ("event", "KickedOut")])
        }
    }

    private static func property(_ profile: SDKProfile, id: String, rules: [String], table: String) -> ExploreProperty {
        ExploreProperty(
            id: id, rules: rules, summary: "a connected device kicked with code X ends with the kick table's callback (\(table))",
            profiles: [profile]
        ) { trace, program in
            var connected: Set<String> = []
            var kicked: [String: (code: Int, operation: Int)] = [:]
            return trace.firstViolation(in: program) { event, scan in
                switch event {
                case .server(let device, "kicked", let code?, _) where connected.contains(device) && !scan.holds(device):
                    kicked[device] = kicked[device] ?? (code, scan.operation)
                case .callback(let callback, .connected): connected.insert(callback.device)
                case .callback(let callback, .lost):
                    // Not connected in its own view: a kick the server sends now is on a socket it left.
                    // (A kick's own drop report comes after the kick: that kick stays recorded.)
                    connected.remove(callback.device)
                case .callback(let callback, .loggedOut):
                    connected.remove(callback.device)
                    kicked[callback.device] = nil
                case .callback(let callback, .sessionEnded):
                    connected.remove(callback.device)
                    guard let kick = kicked.removeValue(forKey: callback.device) else { return nil }
                    let expected = Self.expected(kick.code, profile: program.profile, transport: trace.transport)
                    if callback.name == expected.name && expected.arguments.allSatisfy({ callback.argument($0.0) == $0.1 }) { return nil }
                    let arguments = expected.arguments.map { "\($0.0): \($0.1.encodedString)" }.joined(separator: ", ")
                    let pattern = expected.name + (arguments.isEmpty ? "" : "(\(arguments))")
                    return ExploreViolation(
                        device: callback.device,
                        message: "\(callback.device) was kicked with \(kick.code) while connected but ended with #\(callback.sequence) \(callback.summary), not \(pattern)",
                        operation: scan.operation, witness: .sequence(patterns: [pattern], since: kick.operation))
                default:
                    break
                }
                return nil
            }
        }
    }
}
