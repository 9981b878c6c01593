/// The seam to the device policy: what a new login does to the user's live sessions.
///
/// The engine asks after every other check passed (token, user, app, DAU). Kicks are executed
/// in the order given, then `replacing` is closed silently (1000), then the login is accepted.
public protocol LoginDecider: Sendable {
    /// Decides on `attempt` given the user's live sessions in `app`. A thrown error refuses the
    /// login with 110 (e.g. a platform of the other vendor family).
    func decide(_ attempt: LoginAttempt, liveSessions: LiveSessions, app: App) throws(LoginPolicyError)
        -> LoginDecision
}

extension LoginDecider {
    /// Decides on `attempt` given the user's live sessions as a list, in any order.
    public func decide(_ attempt: LoginAttempt, liveSessions: [LiveSession], app: App) throws(LoginPolicyError)
        -> LoginDecision
    {
        try decide(attempt, liveSessions: LiveSessions(liveSessions), app: app)
    }
}

/// No device limits: every login is accepted; a live session of the same device (same UUID and
/// resource) is replaced without a kick.
public struct AcceptAllLoginDecider: LoginDecider {
    /// Creates the decider.
    public init() {}

    /// Accepts, replacing the same device's session if there is one.
    public func decide(_ attempt: LoginAttempt, liveSessions: LiveSessions, app: App) -> LoginDecision {
        let same = liveSessions.sessions(withResource: attempt.device.resource).first { $0.device.isSameDevice(as: attempt.device) }
        return .accept(resource: attempt.device.resource, replacing: same?.id)
    }
}

/// Applies each app's own policy, ``AppSettings/loginPolicy``: the decider the server uses.
public struct AppLoginDecider: LoginDecider {
    /// Creates the decider.
    public init() {}

    /// Runs ``LoginPolicyEngine`` with `app.settings.loginPolicy`; a device of the other vendor
    /// family than that policy is refused with `platformFamilyMismatch`.
    public func decide(_ attempt: LoginAttempt, liveSessions: LiveSessions, app: App) throws(LoginPolicyError)
        -> LoginDecision
    {
        try LoginPolicyEngine(policy: app.settings.loginPolicy).decide(attempt, liveSessions: liveSessions)
    }
}

/// Applies one fixed ``LoginPolicy`` to every app, whatever the app's own setting (for tests that
/// pin a policy; the server uses ``AppLoginDecider``).
public struct PolicyLoginDecider: LoginDecider {
    /// The policy for every app.
    public let policy: LoginPolicy

    /// Creates the decider.
    public init(policy: LoginPolicy) { self.policy = policy }

    /// Runs ``LoginPolicyEngine``.
    public func decide(_ attempt: LoginAttempt, liveSessions: LiveSessions, app: App) throws(LoginPolicyError)
        -> LoginDecision
    {
        try LoginPolicyEngine(policy: policy).decide(attempt, liveSessions: liveSessions)
    }
}
