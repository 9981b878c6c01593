@testable import IMockCore

/// Shorthand for building devices and sessions in the policy tables.
enum Fixture {
    /// An Easemob device; throws only for the validation tests' bad inputs.
    static func easemob(
        _ platform: EasemobPlatform,
        uuid: String,
        at loginTimeMs: Int64,
        token: UInt64 = 1,
        resource: String? = nil,
        name: String = "",
        extensionInfo: String = ""
    ) throws -> LoginDevice {
        try LoginDevice(
            platform: .easemob(platform), name: name, uuid: uuid, resource: resource,
            extensionInfo: extensionInfo, loginTimeMs: loginTimeMs, tokenID: token)
    }

    /// An OpenIM device.
    static func openIM(
        _ platform: OpenIMPlatform,
        uuid: String,
        at loginTimeMs: Int64,
        token: UInt64,
        resource: String? = nil
    ) throws -> LoginDevice {
        try LoginDevice(
            platform: .openIM(platform), uuid: uuid, resource: resource,
            loginTimeMs: loginTimeMs, tokenID: token)
    }

    /// A live session.
    static func session(_ id: UInt64, _ device: LoginDevice) -> LiveSession {
        LiveSession(id: SessionID(rawValue: id), device: device)
    }
}

/// The expected decision, in session numbers; turned into an exact `LoginDecision`.
enum Expected: Sendable, CustomStringConvertible {
    /// Accept, replacing nothing.
    case accept
    /// Accept, silently replacing this session.
    case replace(UInt64)
    /// Accept and kick these sessions, in this order, with the family's kick signal.
    case kick([UInt64])
    /// Accept, replace the first session and kick the others.
    case replaceAndKick(UInt64, [UInt64])
    /// Refuse with this code.
    case refuse(KickCode)

    var description: String {
        switch self {
        case .accept: "accept"
        case .replace(let id): "replace \(id)"
        case .kick(let ids): "kick \(ids)"
        case .replaceAndKick(let id, let ids): "replace \(id), kick \(ids)"
        case .refuse(let code): "refuse \(code.rawValue)"
        }
    }

    /// The exact decision for `device`.
    func decision(for device: LoginDevice) -> LoginDecision {
        let signal: KickSignal =
            switch device.platform {
            case .easemob: .easemob(.loggedInOnAnotherDevice)
            case .openIM: .openIM(.kickOnlineMessage)
            }
        func kicks(_ ids: [UInt64]) -> [Kick] {
            ids.map { Kick(session: SessionID(rawValue: $0), signal: signal, by: KickOrigin(device: device)) }
        }
        switch self {
        case .accept:
            return .accept(resource: device.resource, replacing: nil)
        case .replace(let id):
            return .accept(resource: device.resource, replacing: SessionID(rawValue: id))
        case .kick(let ids):
            return .acceptAndKick(resource: device.resource, replacing: nil, kicks: kicks(ids))
        case .replaceAndKick(let id, let ids):
            return .acceptAndKick(
                resource: device.resource, replacing: SessionID(rawValue: id), kicks: kicks(ids))
        case .refuse(let code):
            return .refuse(code: code)
        }
    }
}

/// Plays logins one after another, applying each decision to the live set as the server would.
struct LoginSimulator {
    let engine: LoginPolicyEngine
    private(set) var live: [LiveSession] = []
    private var nextID: UInt64 = 1

    init(policy: LoginPolicy) {
        engine = LoginPolicyEngine(policy: policy)
    }

    /// Decides on `attempt`; an accepted login becomes session `nextID` (1, 2, …, counting
    /// refused logins too, so ids equal step numbers).
    mutating func login(_ attempt: LoginAttempt) throws -> LoginDecision {
        let id = nextID
        nextID += 1
        let decision = try engine.decide(attempt, liveSessions: live)
        switch decision {
        case .refuse:
            break
        case .accept(_, let replacing):
            live.removeAll { $0.id == replacing }
            live.append(Fixture.session(id, attempt.device))
        case .acceptAndKick(_, let replacing, let kicks):
            let gone = Set(kicks.map(\.session)).union(replacing.map { [$0] } ?? [])
            live.removeAll { gone.contains($0.id) }
            live.append(Fixture.session(id, attempt.device))
        }
        return decision
    }

    /// The live session numbers, ascending.
    var liveIDs: [UInt64] {
        live.map(\.id.rawValue).sorted()
    }
}
