/// Decides what a new login does to the user's live sessions under an app's policy.
///
/// Pure: the same sessions, attempt and policy always give the same decision. Rules common to
/// every policy, applied before the vendor rules:
/// - A live session with the new login's resource, device UUID and token is the same device
///   reconnecting: it is replaced silently (`replacing:`), never kicked, and does not count
///   against a limit.
/// - Any other live session holding the new login's resource (the same device with another token,
///   e.g. a second browser tab; or another UUID claiming that resource) is kicked with the vendor's
///   kick signal, so resources stay unique per user. When that session is the same device UUID
///   the kick is exempt from "first device wins" and keep-current-device.
/// - Live sessions of the other vendor family (possible only after the app's policy changed) are
///   ignored: they are never kicked and never counted.
/// - Kicks are listed earliest login first; equal login times are ordered by session id.
public struct LoginPolicyEngine: Sendable, Hashable {
    /// The app's policy.
    public let policy: LoginPolicy

    /// Creates an engine for `policy`.
    public init(policy: LoginPolicy) {
        self.policy = policy
    }

    /// Decides on `attempt`, given the user's `liveSessions` in any order.
    ///
    /// Throws `platformFamilyMismatch` when the new device's platform is of the other vendor
    /// family than the policy.
    public func decide(
        _ attempt: LoginAttempt,
        liveSessions: [LiveSession]
    ) throws(LoginPolicyError) -> LoginDecision {
        let device = attempt.device
        let outcome: PolicyOutcome
        let signal: KickSignal
        let sameFamily: [LiveSession]
        switch (policy, device.platform) {
        case (.easemob(let easemob), .easemob(let platform)):
            sameFamily = Self.chronological(liveSessions.filter { $0.device.platform.isEasemob })
            let slots = SlotPartition(device: device, sessions: sameFamily)
            outcome = Self.easemobOutcome(easemob, platform: platform, attempt: attempt, slots: slots)
            signal = .easemob(.loggedInOnAnotherDevice)
        case (.openIM(let openIM), .openIM(let platform)):
            sameFamily = Self.chronological(liveSessions.filter { !$0.device.platform.isEasemob })
            let slots = SlotPartition(device: device, sessions: sameFamily)
            outcome = Self.openIMOutcome(openIM, platform: platform, device: device, slots: slots)
            signal = .openIM(.kickOnlineMessage)
        case (.easemob, .openIM), (.openIM, .easemob):
            throw .platformFamilyMismatch(device.platform)
        }
        switch outcome {
        case .refuse(let code):
            return .refuse(code: code)
        case .kick(let victims, let slots):
            let origin = KickOrigin(device: device)
            let kicks = Self.chronological(slots.conflicts + victims).map {
                Kick(session: $0.id, signal: signal, by: origin)
            }
            let replacing = slots.replaceable?.id
            if kicks.isEmpty { return .accept(resource: device.resource, replacing: replacing) }
            return .acceptAndKick(resource: device.resource, replacing: replacing, kicks: kicks)
        }
    }

    /// Sessions ordered by login time, then session id.
    static func chronological(_ sessions: [LiveSession]) -> [LiveSession] {
        sessions.sorted {
            ($0.device.loginTimeMs, $0.id) < ($1.device.loginTimeMs, $1.id)
        }
    }
}

/// A vendor rule's verdict before the common rules assemble the decision.
enum PolicyOutcome {
    /// Refuse with this code.
    case refuse(KickCode)
    /// Accept, kicking these sessions (besides the slot conflicts).
    case kick([LiveSession], SlotPartition)
}

/// The user's live sessions split by their relation to the new login's resource.
struct SlotPartition {
    /// The same device reconnecting with the same token.
    let replaceable: LiveSession?
    /// Other sessions holding the new login's resource.
    let conflicts: [LiveSession]
    /// Every other session, chronological.
    let others: [LiveSession]
    /// Whether a conflict is a different device UUID (so it counts as kicking another device).
    let hasConflictFromOtherDevice: Bool

    init(device: LoginDevice, sessions: [LiveSession]) {
        var replaceable: LiveSession?
        var conflicts: [LiveSession] = []
        var others: [LiveSession] = []
        for session in sessions {
            if session.device.resource != device.resource {
                others.append(session)
            } else if replaceable == nil, session.device.uuid == device.uuid,
                session.device.tokenID == device.tokenID
            {
                replaceable = session
            } else {
                conflicts.append(session)
            }
        }
        self.replaceable = replaceable
        self.conflicts = conflicts
        self.others = others
        self.hasConflictFromOtherDevice = conflicts.contains { $0.device.uuid != device.uuid }
    }
}

extension DevicePlatform {
    var isEasemob: Bool {
        if case .easemob = self { return true }
        return false
    }
}
