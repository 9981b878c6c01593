/// What the shell must do after a command, in list order.
public enum SessionEffect: Sendable, Equatable {
    /// Send `frame` as one text frame (``ServerFrame/text``) on the connection.
    case send(ConnectionID, ServerFrame)
    /// Send a WebSocket close with this code and reason (≤ 123 bytes), then drop the connection.
    /// The engine already forgot the connection's session; frames that still arrive are ignored.
    case close(ConnectionID, closeCode: UInt16, reason: String)
    /// Run `timer` at `atMs` on the server's clock (at once when `atMs` is already past) and
    /// then call ``SessionEngine/timerFired(_:nowMs:directory:)``.
    case schedule(TimerToken, atMs: Int64)
    /// Forget `timer`; firing it anyway is harmless (the engine ignores stale timers).
    case cancel(TimerToken)
    /// Append to the "what was sent" journal of the control API.
    case journal(JournalEntry)
}

/// One record of what the server sent that matters to a test: kicks, login refusals, token
/// events and closes.
public struct JournalEntry: Sendable, Equatable {
    /// When, on the server's clock.
    public var atMs: Int64
    /// To which connection.
    public var connection: ConnectionID
    /// The app of the connection's session or login attempt, when known.
    public var app: AppKey?
    /// The user, when known.
    public var user: String?
    /// The resource of the session, when logged in.
    public var resource: String?
    /// What was sent.
    public var event: JournalEvent

    /// Creates an entry.
    public init(
        atMs: Int64, connection: ConnectionID, app: AppKey?, user: String?, resource: String?, event: JournalEvent
    ) {
        self.atMs = atMs
        self.connection = connection
        self.app = app
        self.user = user
        self.resource = resource
        self.event = event
    }
}

/// What a ``JournalEntry`` records.
public enum JournalEvent: Sendable, Equatable {
    /// A frame (`kicked`, `login.error`, `token.willExpire`, `token.expired`).
    case frame(ServerFrame)
    /// A WebSocket close.
    case closed(code: UInt16, reason: String)
}
