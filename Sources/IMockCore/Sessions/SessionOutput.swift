/// What the engine tells the shell to do, in order: dialect-neutral. The shell hands replies,
/// pushes and ends to the connection's dialect, which encodes them for the wire.
public enum SessionOutput: Sendable, Equatable {
    /// The answer to a request (`tag` nil for a ping without one).
    case reply(ConnectionID, RequestTag?, SessionReply)
    /// Something the server sends unasked.
    case push(ConnectionID, SessionPush)
    /// The session (or the unlogged connection) is over: the dialect says goodbye in its own
    /// way and the connection closes. The engine has already forgotten it.
    case end(ConnectionID, SessionEnd)
    /// Call ``SessionEngine/fireDueTimers(nowMs:)`` when the server's clock reaches `atMs` (at
    /// once when that is already past), instead of at any earlier wake-up asked for: the
    /// engine's earliest token timer. One wake-up stands for every session's timers; waking
    /// early or for timers since cancelled is harmless (nothing is due, the next wake-up is
    /// asked for again).
    case wake(atMs: Int64)
    /// Append to the "what was sent" journal of the control API.
    case journal(JournalEntry)
}

/// The answer to one request.
public enum SessionReply: Sendable, Equatable {
    /// The login is accepted under `resource`.
    case loginAccepted(resource: String, tokenExpiresAt: Int64?, serverTime: Int64)
    /// The answer to a ping, with the server's clock.
    case pong(serverTime: Int64)
    /// The new token is in force.
    case tokenRenewed(tokenExpiresAt: Int64?)
    /// The logout is done; an ``SessionEnd/Cause/loggedOut`` end follows.
    case loggedOut
    /// The user's logged-in devices, earliest login first.
    case devices([DeviceEntry])
    /// The message was accepted (delivered or queued).
    case sent(messageId: String, timestamp: Int64)
    /// The offline message is removed from the queue.
    case acked
    /// The request was refused; `field` names the request's parameter at fault, if one is.
    case refused(SessionError, field: String?)
}

/// What the server sends unasked.
public enum SessionPush: Sendable, Equatable {
    /// The token expires at `expiresAt`; renew it.
    case tokenWillExpire(expiresAt: Int64)
    /// `count` offline messages follow.
    case offlineStart(count: Int)
    /// A 1:1 text message, live or offline.
    case message(ChatMessage)
    /// All offline messages were sent.
    case offlineFinish
    /// Data sync of a type begins.
    case syncStart(SyncType)
    /// Data sync of a type ended, with an error when it could not finish.
    case syncFinish(SyncType, error: SessionError?)
}

/// How and why a connection's session ends.
public struct SessionEnd: Sendable, Equatable {
    /// The cause, which decides how the dialect says goodbye.
    public enum Cause: Sendable, Equatable {
        /// The login was refused.
        case loginRefused(RequestTag, SessionError)
        /// A kick with any code (206 by a policy, 217 by REST, anything by the control API);
        /// `by` is the device that took the place, when there is one.
        case kicked(code: Int, by: KickedBy?)
        /// The token expired.
        case tokenExpired
        /// The device logged out (after the ``SessionReply/loggedOut`` reply).
        case loggedOut
        /// A new login of the same device took the session's place: a silent goodbye.
        case replaced
        /// The client does not read: too much output waits for it.
        case outputOverflow
    }

    /// The cause.
    public var cause: Cause
    /// A short English sentence (the close reason; cut to 123 bytes on the wire).
    public var reason: String
    /// Whose session it was, for the journal entry of the close.
    public var subject: JournalSubject

    /// Creates an end.
    public init(cause: Cause, reason: String, subject: JournalSubject) {
        self.cause = cause
        self.reason = reason
        self.subject = subject
    }
}
