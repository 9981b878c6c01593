import IMockClient
import IMockCore

/// The properties about tokens and messages, and the catalogue of every property.
enum DeliveryProperties {
    /// E5, C8 (Z4): the token's warning never follows its expiry in one session, and never comes
    /// early for a token just renewed.
    static let tokenWarningOrder = ExploreProperty(
        id: "token-warning-order", rules: ["E5", "C8"],
        summary: "tokenWillExpire never comes after tokenDidExpire of the same session, nor before half the life of a token just renewed",
        profiles: [.easemob, .zim]
    ) { trace, program in
        var expired: [String: Int] = [:]
        var renewed: [String: (operation: Int, quietUntilMs: Int64)] = [:]
        var current = 0
        for event in trace.events {
            switch event {
            case .operation(let index):
                current = index
                let operation = program.operations[index]
                if operation.startsLogin, let device = operation.device { (expired[device], renewed[device]) = (nil, nil) }
                if case .expireToken(let user) = operation {
                    for device in program.devices where device.user == user { renewed[device.name] = nil }
                }
            case .callback(let callback, let meaning):
                switch meaning {
                case .sessionEnded(let tokenExpired):
                    renewed[callback.device] = nil
                    if tokenExpired { expired[callback.device] = current }
                case .renewed:
                    guard case .renewToken(_, let ttl) = program.operations[callback.stepIndex] else { continue }
                    renewed[callback.device] = (callback.stepIndex, callback.timeMs + ttl * 500)
                case .tokenWillExpire:
                    if let since = expired[callback.device] {
                        return ExploreViolation(
                            device: callback.device,
                            message: "\(callback.device) got #\(callback.sequence) \(callback.summary) after its token expired (operation \(since))",
                            operation: current, witness: .absent(pattern: callback.stablePattern, since: since + 1))
                    }
                    if let renewal = renewed[callback.device], callback.timeMs < renewal.quietUntilMs {
                        return ExploreViolation(
                            device: callback.device,
                            message: "\(callback.device) got #\(callback.sequence) \(callback.summary) soon after its token was renewed (operation \(renewal.operation)): the warning is of the old token",
                            operation: current, witness: .absent(pattern: callback.stablePattern, since: renewal.operation + 1))
                    }
                default:
                    continue
                }
            case .server:
                continue
            }
        }
        return nil
    }

    /// C10: a device gets each message once, and one sender's messages in the order sent.
    static let messagesOnceInOrder = ExploreProperty(
        id: "messages-once-in-order", rules: ["C10"],
        summary: "every message reaches a device at most once, and one sender's messages in the order they were sent",
        profiles: Set(SDKProfile.allCases)
    ) { trace, program in
        var seen: [String: Set<String>] = [:]
        var lastFrom: [String: ObservedCallback] = [:]
        for event in trace.events {
            guard case .callback(let callback, .message(_, let from, let text)) = event else { continue }
            if seen[callback.device, default: []].contains(text) {
                return ExploreViolation(
                    device: callback.device, message: "\(callback.device) got message \(text) again (#\(callback.sequence) \(callback.summary))",
                    operation: callback.stepIndex, witness: .absent(pattern: callback.stablePattern, since: callback.stepIndex))
            }
            seen[callback.device, default: []].insert(text)
            let key = callback.device + "\u{0}" + from
            if let previous = lastFrom[key], number(previous.argument("text")?.stringValue) > number(text) {
                return ExploreViolation(
                    device: callback.device,
                    message: "\(callback.device) got \(from)'s message \(text) after \(previous.argument("text")?.stringValue ?? "?"), which was sent later",
                    operation: callback.stepIndex, witness: .order(first: callback.stablePattern, then: previous.stablePattern))
            }
            lastFrom[key] = callback
        }
        return nil
    }

    /// `m12` → 12.
    private static func number(_ text: String?) -> Int { Int(text?.dropFirst() ?? "") ?? 0 }
}

extension ExploreProperty {
    /// Every property, in the order they are checked.
    public static let all: [ExploreProperty] = [
        SessionProperties.noReconnectAfterSessionEnd, KickTableProperty.easemob, KickTableProperty.openim, KickTableProperty.zim,
        SessionProperties.loginThenConnected,
        SessionProperties.quietAfterLogout, SessionProperties.droppedDeviceReconnects, DeviceLimitProperty.property,
        DeliveryProperties.tokenWarningOrder,
        DeliveryProperties.messagesOnceInOrder,
    ]
}
