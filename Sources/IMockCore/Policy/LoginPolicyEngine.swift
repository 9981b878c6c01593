/// Decides what a new login does to the user's live sessions under an app's policy.
///
/// Pure: the same sessions, attempt and policy always give the same decision. Rules common to
/// every policy, applied before the vendor rules:
/// - **The same device** is the same device UUID and resource, whatever the token: a real SDK
///   reconnecting after a renewal or an app restart always brings a new token. A live session
///   of the same device is replaced silently (`replacing:`): never kicked, never counted
///   against a limit, never the reason for a refusal (213, 214, 220).
/// - A live session of another device UUID holding the new login's resource is kicked with the
///   vendor's kick signal, so resources stay unique per user; it counts as kicking another
///   device (keep-current-device and "first device wins" refuse instead).
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
    /// The same device (UUID and resource) logging in again.
    let replaceable: LiveSession?
    /// Sessions of other device UUIDs holding the new login's resource.
    let conflicts: [LiveSession]
    /// Every other session, chronological.
    let others: [LiveSession]
    /// Whether another device holds the new login's resource (so the login kicks another device).
    var hasConflictFromOtherDevice: Bool { !conflicts.isEmpty }

    init(device: LoginDevice, sessions: [LiveSession]) {
        var replaceable: LiveSession?
        var conflicts: [LiveSession] = []
        var others: [LiveSession] = []
        for session in sessions {
            if session.device.resource != device.resource {
                others.append(session)
            } else if replaceable == nil, session.device.isSameDevice(as: device) {
                replaceable = session
            } else {
                conflicts.append(session)
            }
        }
        self.replaceable = replaceable
        self.conflicts = conflicts
        self.others = others
    }
}

extension DevicePlatform {
    var isEasemob: Bool {
        if case .easemob = self { return true }
        return false
    }
}
