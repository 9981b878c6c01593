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
        try decide(attempt, liveSessions: LiveSessions(liveSessions))
    }

    /// Decides on `attempt`, given the user's live sessions. Reads the sessions holding the
    /// new device's resource and those of the buckets the policy counts or kicks in — never
    /// every session of the user (docs/BENCHMARKS.md: a load test of one account).
    public func decide(
        _ attempt: LoginAttempt,
        liveSessions: LiveSessions
    ) throws(LoginPolicyError) -> LoginDecision {
        let device = attempt.device
        let outcome: PolicyOutcome
        let signal: KickSignal
        switch (policy, device.platform) {
        case (.easemob(let easemob), .easemob(let platform)):
            let slots = SlotPartition(device: device, sessions: liveSessions, easemob: true)
            outcome = Self.easemobOutcome(easemob, platform: platform, attempt: attempt, slots: slots)
            signal = .easemob(.loggedInOnAnotherDevice)
        case (.openIM(let openIM), .openIM(let platform)):
            let slots = SlotPartition(device: device, sessions: liveSessions, easemob: false)
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
        sessions.sorted(by: LiveSessions.precedes)
    }
}

/// A vendor rule's verdict before the common rules assemble the decision.
enum PolicyOutcome {
    /// Refuse with this code.
    case refuse(KickCode)
    /// Accept, kicking these sessions (besides the slot conflicts).
    case kick([LiveSession], SlotPartition)
}

/// The user's live sessions of the new login's vendor family (those of the other family are
/// never counted nor kicked), split by their relation to the new login's resource.
struct SlotPartition {
    /// The same device (UUID and resource) logging in again.
    let replaceable: LiveSession?
    /// Sessions of other device UUIDs holding the new login's resource.
    let conflicts: [LiveSession]
    /// The new login's resource, which the others do not hold.
    let resource: String
    /// The family's sessions; read by bucket.
    let sessions: LiveSessions
    private let easemob: Bool
    /// Sessions of the family holding the new login's resource, by bucket.
    private let sameResource: [LiveSession]

    /// Whether another device holds the new login's resource (so the login kicks another device).
    var hasConflictFromOtherDevice: Bool { !conflicts.isEmpty }

    init(device: LoginDevice, sessions: LiveSessions, easemob: Bool) {
        let sameResource = sessions.sessions(withResource: device.resource).filter { $0.device.bucket.isEasemob == easemob }
        var replaceable: LiveSession?
        var conflicts: [LiveSession] = []
        for session in sameResource {
            if replaceable == nil, session.device.isSameDevice(as: device) {
                replaceable = session
            } else {
                conflicts.append(session)
            }
        }
        self.replaceable = replaceable
        self.conflicts = conflicts
        self.resource = device.resource
        self.sessions = sessions
        self.easemob = easemob
        self.sameResource = sameResource
    }

    /// How many of the other sessions (another resource) the buckets matching `include` hold.
    func otherCount(inBuckets include: (DeviceBucket) -> Bool) -> Int {
        sessions.count(inBuckets: { $0.isEasemob == easemob && include($0) })
            - sameResource.count { include($0.device.bucket) }
    }

    /// The other sessions (another resource) of the buckets matching `include` that satisfy
    /// `condition`, earliest first, at most `limit`.
    func others(
        inBuckets include: (DeviceBucket) -> Bool, where condition: (LiveSession) -> Bool = { _ in true },
        limit: Int = .max
    ) -> [LiveSession] {
        let resource = self.resource
        return sessions.sessions(
            inBuckets: { $0.isEasemob == easemob && include($0) },
            where: { $0.device.resource != resource && condition($0) }, limit: limit)
    }

    /// Whether any other session (another resource) is live.
    var hasOthers: Bool { otherCount(inBuckets: { _ in true }) > 0 }

    /// The latest session of the family, whatever its resource.
    var latest: LiveSession? {
        let easemob = self.easemob
        return sessions.latest { $0.device.bucket.isEasemob == easemob }
    }
}

extension DevicePlatform {
    var isEasemob: Bool {
        if case .easemob = self { return true }
        return false
    }
}
