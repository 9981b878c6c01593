import IMockClient
import IMockCore

/// S4, E10: never more devices of one user connected in a platform group than the app's
/// Easemob policy allows (docs/SEED.md § Login policy): the group's `deviceLimits` entry (else
/// `default`, else 4), or one device in all in single-device mode. Counted from the devices' own
/// reports, which in process come in the order the server sent (a kick before the newcomer's
/// login result); devices whose user a black hole holds are not counted (their reports lag).
enum DeviceLimitProperty {
    static let property = ExploreProperty(
        id: "device-limit", rules: ["S4", "E10"],
        summary: "a user never has more devices connected in a platform group than the login policy allows (single-device: one in all)",
        profiles: Set(SDKProfile.allCases)
    ) { trace, program in
        guard program.policy["vendor"]?.stringValue == "easemob" else { return nil }
        let single = program.policy["mode"]?.stringValue == "singleDevice"
        var connected: [String] = []  // in the order they connected
        return trace.firstViolation(in: program) { event, scan in
            guard case .callback(let callback, let meaning) = event else { return nil }
            switch meaning {
            case .lost, .sessionEnded, .loggedOut, .loginFailed: connected.removeAll { $0 == callback.device }
            case .connected:
                connected.removeAll { $0 == callback.device }
                connected.append(callback.device)
                guard let device = program.device(callback.device), !scan.holds(device.name) else { return nil }
                let group = single ? "all" : Self.group(device.platform)
                let peers = connected.filter { name in
                    guard let peer = program.device(name), peer.user == device.user, !scan.holds(name) else { return false }
                    return single || Self.group(peer.platform) == group
                }
                let limit = single ? 1 : Self.limit(program.policy, group: group)
                guard peers.count > limit else { return nil }
                let firstWins = single && program.policy["rule"]?.stringValue == "firstDeviceWins"
                return ExploreViolation(
                    device: firstWins ? device.name : peers[0],
                    message: "\(device.user) has \(peers.count) devices connected in group \(group) (\(peers.joined(separator: ", "))) after #\(callback.sequence) \(callback.device): \(callback.summary); the policy allows \(limit)",
                    operation: scan.operation, witness: .notConnected)
            default:
                break
            }
            return nil
        }
    }

    /// The Easemob platform group of a fixture platform.
    static func group(_ platform: String) -> String {
        switch platform {
        case "ios", "android": return "mobile"
        case "windows", "macos": return "desktop"
        default: return platform
        }
    }

    /// The multi-device limit of `group` under `policy`.
    static func limit(_ policy: JSONValue, group: String) -> Int {
        let limits = policy["deviceLimits"]
        return Int(limits?[group]?.intValue ?? limits?["default"]?.intValue ?? 4)
    }
}
